// Fuzz entry for the server's packet handling: a Server over the in-process
// link with one player and one spectator already accepted and a few ticks
// played (so acks, inputs and updates have a session to act on), then the
// input's records as datagrams, with ticks between them where flagged.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "carom/protocol/client_report.hpp"
#include "carom/protocol/seal.hpp"
#include "entries.hpp"
#include "link.hpp"

namespace carom::fuzz {
namespace {

// Replaces every occurrence of `from` (its little-endian bytes) with `to`.
template <class T>
void swap_placeholder(std::vector<std::uint8_t>& bytes, T from, T to) {
    std::uint8_t f[sizeof(T)], t[sizeof(T)];
    std::memcpy(f, &from, sizeof(T));
    std::memcpy(t, &to, sizeof(T));
    auto it = bytes.begin();
    while ((it = std::search(it, bytes.end(), std::begin(f), std::end(f))) != bytes.end()) {
        std::copy(std::begin(t), std::end(t), it);
        it += sizeof(T);
    }
}

}  // namespace

int server_datagrams(std::span<const std::uint8_t> input) {
    spdlog::set_level(spdlog::level::off);
    using namespace carom::server;
    using namespace carom::server::test;
    Link link;
    ServerConfig config = config_for("rink.json");
    config.bots = true;
    InlineDiskWork disk;
    Server server(config, link, disk, fixed_cookies(), "fuzz");
    ScriptedClient player(server, link, endpoint(1, 5000), 1);
    ScriptedClient spectator(server, link, endpoint(2, 5001), 2);
    const net::Packet* accepted = player.connect("player");
    if (accepted == nullptr || accepted->body_type() != net::Body::Accepted) return 0;
    spectator.connect("watcher", -1, true);
    for (std::uint32_t s = 1; s <= 3; ++s) {
        player.input(s, 0, s > 1 ? std::optional<std::uint64_t>(s - 1) : std::nullopt);
        server.tick();
    }
    link.inbox.clear();

    const Endpoint stranger = endpoint(3, 6000);
    // The player's end of the session: what it seals, the server opens.
    protocol::SessionSeal seal = *player.seal();
    for_each_record(input, [&](const Record& r) {
        std::vector<std::uint8_t> bytes(r.bytes.begin(), r.bytes.end());  // aligned, as received
        swap_placeholder(bytes, kFuzzClientId, player.client_id());
        if ((r.flags & kRecordAsItIs) == 0) {
            protocol::DatagramBuffer out{};
            const auto sealed = seal.seal(bytes, out);
            if (!sealed.empty()) bytes.assign(sealed.begin(), sealed.end());
        }
        server.receive((r.flags & kRecordStranger) != 0 ? stranger : player.at(), bytes);
        if ((r.flags & kRecordTick) != 0) {
            server.tick();
            link.inbox.clear();
        }
    });
    server.tick();
    return 0;
}

}  // namespace carom::fuzz
