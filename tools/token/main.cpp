// carom-token: the operator's side of connect tokens (schemas/PROTOCOL.md,
// "Connect tokens"). `keygen` writes a server's token key; `make` makes a
// token for one player with it, as a backend would (libcarom's
// carom_token_make is the same for programs).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "carom/cli/cli.hpp"
#include "carom/client/host_port.hpp"
#include "carom/protocol/connect_token.hpp"

namespace {

constexpr int kExitFailed = 1;

// Writes `text` to a new file of mode 0600; never replaces one.
int write_new_private_file(const std::string& path, const std::string& text, bool replace) {
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replace ? O_TRUNC : O_EXCL);
    const int fd = ::open(path.c_str(), flags, 0600);
    if (fd < 0) {
        const int err = errno;
        std::cerr << "carom-token: " << path << ": " << std::strerror(err)
                  << (err == EEXIST ? " (a key is never replaced: remove it first)" : "") << "\n";
        return err == EEXIST ? carom::cli::kExitUsage : kExitFailed;
    }
    std::size_t done = 0;
    while (done < text.size()) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            std::cerr << "carom-token: " << path << ": " << std::strerror(errno) << "\n";
            ::close(fd);
            return kExitFailed;
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        std::cerr << "carom-token: " << path << ": " << std::strerror(errno) << "\n";
        return kExitFailed;
    }
    return 0;
}

struct MakeOptions {
    std::string key_file;
    std::uint64_t id = 0;
    std::string name;
    std::vector<std::string> servers;
    std::uint64_t expires_s = 0;
    std::string data;
    std::string out = "-";
};

int make(const MakeOptions& o) {
    // The client dials the token's first server: each must be HOST:PORT.
    for (const auto& server : o.servers)
        if (const auto hp = carom::client::parse_host_port(server); !hp) {
            std::cerr << "carom-token: --server " << server << ": " << hp.error().message << "\n";
            return carom::cli::kExitUsage;
        }
    std::ifstream in(o.key_file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        std::cerr << "carom-token: " << o.key_file << ": cannot read the key\n";
        return kExitFailed;
    }
    const auto key = carom::protocol::key_from_hex(text.str());
    if (!key) {
        std::cerr << "carom-token: " << o.key_file << ": " << key.error().message << "\n";
        return carom::cli::kExitUsage;
    }
    carom::protocol::TokenGrant grant;
    grant.player_id = o.id;
    grant.name = o.name;
    grant.servers = o.servers;
    grant.user_data.assign(o.data.begin(), o.data.end());
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const auto token = carom::protocol::make_connect_token(
        *key, grant,
        static_cast<std::uint64_t>(std::chrono::floor<std::chrono::seconds>(now).count()),
        o.expires_s);
    if (!token) {
        std::cerr << "carom-token: cannot make the token: " << token.error().message << "\n";
        return carom::cli::kExitUsage;
    }
    const std::string line = carom::protocol::token_to_text(*token) + "\n";
    if (o.out == "-") {
        std::cout << line;
        return 0;
    }
    return write_new_private_file(o.out, line, true);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"carom-token: connect tokens for servers started with --token-key"};
    app.footer(
        "Exit codes: 0 done, 1 a file could not be read or written, 2 bad arguments\n"
        "(an existing key file, a grant past a limit).\n"
        "A token is one line of base64url text: carom-client --token FILE, or the play\n"
        "page's #token=TEXT. It holds the session's keys: hand it to its player only.");
    carom::cli::add_version(app);
    app.require_subcommand(1);

    std::string key_out;
    auto* keygen =
        app.add_subcommand("keygen", "Write a new random token key (one hex line, mode 0600)");
    keygen->add_option("-o,--output", key_out, "The key file to create (never replaced)")
        ->required();

    MakeOptions m;
    auto* make_cmd = app.add_subcommand("make", "Make a connect token for one player");
    make_cmd->add_option("--key", m.key_file, "The server's token key (carom-token keygen)")
        ->required();
    make_cmd->add_option("--id", m.id, "The player's id (64 bits; --ban-id refuses it)")
        ->required();
    make_cmd
        ->add_option("--name", m.name,
                     "The name the server shows and records (1-15 printable ASCII, no spaces)")
        ->required();
    make_cmd
        ->add_option("--server", m.servers,
                     "HOST:PORT of a server the token is good for, as the server names itself "
                     "(repeatable, at most 4)")
        ->required();
    make_cmd->add_option("--expires", m.expires_s, "Seconds the token is good for")
        ->required()
        ->check(carom::cli::finite(1, 365.0 * 24 * 3600));
    make_cmd->add_option("--data", m.data, "User data for the server (at most 256 bytes)");
    make_cmd->add_option("-o,--output", m.out, "Where the token goes (-: standard output)");

    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    if (keygen->parsed())
        return write_new_private_file(
            key_out, carom::protocol::key_to_hex(carom::protocol::make_token_key()) + "\n", false);
    return make(m);
}
