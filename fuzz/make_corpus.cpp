// carom-fuzz-corpus ROOT: writes the seed corpora of every fuzz target under
// ROOT (the source tree), valid inputs of every kind, made by the real code:
//   server/fuzz/corpus/server_datagrams            client packets of every kind, as records
//   shared/netclient/fuzz/corpus/client_updates    a real server's packets to a client
//   shared/replay/fuzz/corpus/replay_reader        small recorded matches
//   shared/protocol/fuzz/corpus/map_json, map_binary  the shipped maps
//   shared/protocol/fuzz/corpus/connect_token      tokens, their private parts, text and plaintexts
// Re-run after a protocol or file format change, and commit the result.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "carom/game/bot.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/client_report.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/status.hpp"
#include "carom/replay/recorder.hpp"
#include "entries.hpp"
#include "link.hpp"

namespace {

using namespace carom;
using namespace carom::fuzz;
using Bytes = std::vector<std::uint8_t>;
namespace fs = std::filesystem;

Bytes copy_of(std::span<const std::uint8_t> s) {
    return {s.begin(), s.end()};
}

void write(const fs::path& dir, const std::string& name, const Bytes& bytes) {
    fs::create_directories(dir);
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + (dir / name).string());
}

// Records: [flags][length lo][length hi][bytes].
class Records {
  public:
    Records& add(const Bytes& datagram, std::uint8_t flags = 0) {
        bytes_.push_back(flags);
        bytes_.push_back(static_cast<std::uint8_t>(datagram.size() & 0xFF));
        bytes_.push_back(static_cast<std::uint8_t>(datagram.size() >> 8));
        bytes_.insert(bytes_.end(), datagram.begin(), datagram.end());
        return *this;
    }
    const Bytes& bytes() const { return bytes_; }

  private:
    Bytes bytes_;
};

// A ClientUpdate: `count` inputs from sequence `first` on, and `ack` (0:
// none), in the clear (the harness seals it, unless the record says kRecordAsItIs).
Bytes client_update(std::uint32_t first, std::uint32_t count, std::uint64_t ack) {
    protocol::ClientReport r;
    for (std::uint32_t i = 0; i < count; ++i)
        r.inputs.push_back(game::Input::from_bits(static_cast<std::uint8_t>((first + i) % 17)));
    r.sequence = count > 0 ? first + count - 1 : 0;
    if (ack != 0) r.ack = ack;
    flatbuffers::FlatBufferBuilder b;
    return copy_of(protocol::encode_client_report(b, r));
}

Bytes keep_alive(std::uint32_t id = kFuzzClientId) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateKeepAlive(b);
    return copy_of(protocol::finish_packet(b, id, net::Body::KeepAlive, body.Union()));
}

// The chunks `chunks` of the map of `hash` (rink's, the harness's room).
Bytes map_request(std::uint64_t hash, const std::vector<std::uint32_t>& chunks) {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateMapRequestDirect(b, hash, &chunks);
    return copy_of(protocol::finish_packet(b, kFuzzClientId, net::Body::MapRequest, body.Union()));
}

Bytes status_request(std::uint32_t first_room, bool padded) {
    flatbuffers::FlatBufferBuilder b;
    if (padded) return copy_of(protocol::encode_status_request(b, first_room));
    const auto body = net::CreateStatusRequest(b, first_room);
    return copy_of(protocol::finish_packet(b, 0, net::Body::StatusRequest, body.Union()));
}

Bytes disconnect() {
    flatbuffers::FlatBufferBuilder b;
    const auto body = net::CreateDisconnect(b, net::DisconnectReason::quit);
    return copy_of(protocol::finish_packet(b, kFuzzClientId, net::Body::Disconnect, body.Union()));
}

Bytes connect_request(const std::string& name, bool spectator, std::size_t padding) {
    flatbuffers::FlatBufferBuilder b;
    const Bytes pad(padding, 0);
    const auto body =
        net::CreateConnectRequest(b, b.CreateString(name), -1, spectator, b.CreateVector(pad), 77);
    return copy_of(protocol::finish_packet(b, 0, net::Body::ConnectRequest, body.Union()));
}

Bytes connect_response(const std::string& name, std::uint64_t cookie, bool spectator) {
    for (std::size_t padding = 0;; padding += 8) {
        flatbuffers::FlatBufferBuilder b;
        const Bytes pad(padding, 0);
        const auto body = net::CreateConnectResponse(b, b.CreateString(name), -1, spectator, cookie,
                                                     b.CreateVector(pad), 77);
        const auto bytes = protocol::finish_packet(b, 0, net::Body::ConnectResponse, body.Union());
        if (bytes.size() >= protocol::kConnectRequestMinBytes) return copy_of(bytes);
    }
}

// The cookie the fuzz harness's server gives the stranger's address: the
// same server, built the same way, asked the same way.
std::uint64_t stranger_cookie() {
    server::test::Link link;
    server::InlineDiskWork disk;
    server::Server s(server::test::config_for("rink.json"), link, disk,
                     server::test::fixed_cookies(), "fuzz");
    server::test::ScriptedClient c(s, link, server::test::endpoint(3, 6000), 77);
    c.request("stranger");
    const net::Packet* p = c.next();
    if (p == nullptr || p->body_type() != net::Body::Challenge)
        throw std::runtime_error("no challenge for the stranger");
    return p->body_as_Challenge()->cookie();
}

void server_corpus(const fs::path& dir) {
    write(dir, "input", Records().add(client_update(4, 8, 2)).bytes());
    Records play;
    for (std::uint32_t t = 0; t < 12; ++t)
        play.add(client_update(4 + t, 8, t + 1), kRecordTick);
    write(dir, "inputs-over-ticks", play.bytes());
    write(dir, "input-far-ahead",
          Records().add(client_update((1u << 15) - 4, 8, 2), kRecordTick).bytes());
    write(dir, "input-behind", Records().add(client_update(1, 3, 2), kRecordTick).bytes());
    write(dir, "input-max-redundancy", Records().add(client_update(4, 64, 3)).bytes());
    write(dir, "ack-none", Records().add(client_update(4, 1, 0), kRecordTick).bytes());
    write(dir, "ack-never-sent", Records().add(client_update(4, 1, 60000), kRecordTick).bytes());
    write(dir, "keep-alive", Records().add(keep_alive(), kRecordTick).bytes());
    write(
        dir, "disconnect",
        Records().add(client_update(4, 2, 2), kRecordTick).add(disconnect(), kRecordTick).bytes());
    write(dir, "unsealed",
          Records().add(client_update(4, 8, 2), kRecordAsItIs | kRecordTick).bytes());
    write(dir, "wrong-id", Records().add(keep_alive(12345)).bytes());
    write(dir, "connect-request",
          Records()
              .add(connect_request("stranger", false, protocol::kConnectRequestMinBytes),
                   kRecordStranger)
              .bytes());
    write(dir, "connect-request-unpadded",
          Records().add(connect_request("stranger", false, 0), kRecordStranger).bytes());
    write(dir, "handshake-player",
          Records()
              .add(connect_request("stranger", false, protocol::kConnectRequestMinBytes),
                   kRecordStranger)
              .add(connect_response("stranger", stranger_cookie(), false),
                   kRecordStranger | kRecordTick)
              .bytes());
    write(dir, "handshake-spectator",
          Records()
              .add(connect_response("watcher2", stranger_cookie(), true),
                   kRecordStranger | kRecordTick)
              .bytes());
    write(
        dir, "request-from-session",
        Records().add(connect_request("player", false, protocol::kConnectRequestMinBytes)).bytes());
    write(dir, "forged-cookie",
          Records().add(connect_response("stranger", 0xBAD, false), kRecordStranger).bytes());
    // Server-to-client datagrams sent to the server.
    flatbuffers::FlatBufferBuilder b;
    const auto challenge = net::CreateChallenge(b, 1);
    const Bytes challenge_bytes =
        copy_of(protocol::finish_packet(b, 0, net::Body::Challenge, challenge.Union()));
    protocol::Update u;
    u.tick = 5;
    u.baseline = 4;
    write(dir, "unexpected-type",
          Records()
              .add(challenge_bytes)
              .add(copy_of(protocol::encode_update(b, u, {4, true})))
              .bytes());
    write(dir, "not-a-packet", Records().add(Bytes{0, 1, 2, 3, 4, 5, 6, 7, 8}).bytes());
    // The map transfer and the status query.
    const std::uint64_t rink = protocol::map_hash(server::test::map_named("rink.json"));
    write(dir, "map-request",
          Records()
              .add(map_request(rink, {0, 1, 2}), kRecordTick)
              .add(map_request(rink, {2, 3, 999, 1}), kRecordTick)
              .add(client_update(4, 1, 0), kRecordTick)
              .bytes());
    write(dir, "map-request-other-map",
          Records().add(map_request(rink ^ 1, {0}), kRecordTick).bytes());
    write(dir, "status-request",
          Records()
              .add(status_request(0, true), kRecordStranger)
              .add(status_request(1, true))
              .bytes());
    write(dir, "status-request-unpadded",
          Records().add(status_request(0, false), kRecordStranger).bytes());
}

// Replaces every occurrence of `from` (little-endian) with `to`.
template <class T>
void swap_placeholder(Bytes& bytes, T from, T to) {
    std::uint8_t f[sizeof(T)], t[sizeof(T)];
    std::memcpy(f, &from, sizeof(T));
    std::memcpy(t, &to, sizeof(T));
    auto it = bytes.begin();
    while ((it = std::search(it, bytes.end(), std::begin(f), std::end(f))) != bytes.end()) {
        std::copy(std::begin(t), std::end(t), it);
        it += sizeof(T);
    }
}

// What a real server sends one player over a few seconds, opened, its ids
// swapped for the placeholders. The player
// keeps a copy of the match and acknowledges what it holds, all but every
// 40th tick (a FullState then, within the server's budget of one per 20
// ticks); the room's bots score, kick off, and the match goes on.
void client_corpus(const fs::path& dir) {
    server::test::Link link;
    server::ServerConfig config = server::test::config_for("rink.json");
    config.bots = true;
    std::vector<Bytes> received;  // in order, each followed by a tick
    server::InlineDiskWork disk;
    server::Server s(config, link, disk, server::test::fixed_cookies(), "fuzz");
    server::test::ScriptedClient c(s, link, server::test::endpoint(1, 5000), 1);
    if (c.connect("player") == nullptr) throw std::runtime_error("no Accepted");
    c.keep_copy(server::test::map_named("rink.json"));
    const auto placeholders = [&](Bytes bytes) {
        swap_placeholder(bytes, c.client_id(), kFuzzClientId);
        return bytes;
    };
    for (std::uint32_t t = 1; t <= 240; ++t) {
        c.input(t, static_cast<std::uint8_t>(t % 9),
                c.copy().holds() && t % 40 != 0 ? std::optional(c.copy().tick()) : std::nullopt);
        s.tick();
        auto& q = link.inbox[c.at()];
        for (const auto& d : q)
            received.push_back(placeholders(c.peek(d).bytes));
        c.take();
    }
    s.shutdown();
    Bytes goodbye;
    for (const auto& d : link.inbox[c.at()])
        goodbye = placeholders(c.peek(d).bytes);
    if (received.size() < 40) throw std::runtime_error("too few updates");

    write(dir, "full-state", Records().add(received[0], kRecordTick).bytes());
    Records first;
    for (std::size_t i = 0; i < 12; ++i)
        first.add(received[i], kRecordTick);
    write(dir, "full-state-then-updates", first.bytes());
    Records later;
    for (std::size_t i = 0; i < received.size(); ++i)
        if (i % 4 != 1) later.add(received[i], kRecordTick);  // a quarter lost
    write(dir, "updates-with-loss", later.bytes());
    Records reordered;
    for (std::size_t i = 0; i + 1 < 30; i += 2)
        reordered.add(received[i + 1], kRecordTick).add(received[i], kRecordTick);
    write(dir, "updates-reordered", reordered.bytes());
    Records all;
    for (const Bytes& b : received)
        all.add(b, kRecordTick);
    write(dir, "four-seconds", all.bytes());
    if (!goodbye.empty())
        write(dir, "server-shutdown",
              Records().add(received[0], kRecordTick).add(goodbye, kRecordTick).bytes());
}

void replay_corpus(const fs::path& dir, const fs::path& maps) {
    const auto loaded = maps::load_map_file(maps / "rink.json");
    if (!loaded) throw std::runtime_error(loaded.error().message);
    const game::Map& map = *loaded;
    const fs::path tmp =
        fs::temp_directory_path() / ("carom-fuzz-corpus-" + std::to_string(::getpid()));
    struct Kind {
        const char* name;
        std::uint64_t ticks;
        bool finish;
    };
    // Every kind in each format the reader takes.
    for (const std::uint32_t format : {replay::kFormatVersion, std::uint32_t{1}})
        for (const Kind k : {Kind{"finished-120-ticks", 120, true},
                             Kind{"roster-changes", 360, true}, Kind{"unfinished", 200, false}}) {
            fs::remove(tmp);
            {
                const std::vector<game::RosterEntry> players{
                    {0, "a", true}, {1, "b", true}, {2, "c", false}};
                game::Match match(map, 11);
                for (const game::RosterEntry& p : players)
                    match.join(p.slot, p.name);
                replay::MatchRecorder rec(tmp, match, "fuzz corpus", players, 0, format);
                std::vector<game::Input> in(match.slot_count());
                for (std::uint64_t t = 0; t < k.ticks; ++t) {
                    if (t == 100) {
                        rec.leaving(match, 1);
                        match.leave(1);
                    }
                    if (t == 200) {
                        rec.joining(match, 3, "d", true);
                        match.join(3, "d");
                    }
                    for (game::Slot s = 0; s < in.size(); ++s)
                        in[s] = game::bot_input(match, s);
                    if (const Status recorded = rec.stepped(match, match.step(in)); !recorded)
                        throw std::runtime_error(recorded.error().message);
                }
                if (k.finish)
                    if (const auto footer = rec.finish(match); !footer)
                        throw std::runtime_error(footer.error().message);
            }
            std::ifstream f(tmp, std::ios::binary);
            const std::string name =
                format == replay::kFormatVersion ? k.name : k.name + std::string("-format1");
            write(dir, name, Bytes(std::istreambuf_iterator<char>(f), {}));
        }
    // A branch: a match that starts from the state of tick 150 and names a parent.
    fs::remove(tmp);
    {
        const std::vector<game::RosterEntry> players{{0, "a", true}, {1, "b", false}};
        game::Match match(map, 11);
        for (const game::RosterEntry& p : players)
            match.join(p.slot, p.name);
        std::vector<game::Input> in(match.slot_count());
        const auto step_bots = [&] {
            for (game::Slot s = 0; s < in.size(); ++s)
                in[s] = game::bot_input(match, s);
            return match.step(in);
        };
        for (int t = 0; t < 150; ++t)
            step_bots();
        replay::FileHash parent{};
        for (std::size_t i = 0; i < parent.size(); ++i)
            parent[i] = static_cast<std::uint8_t>(i);
        replay::MatchRecorder rec(tmp, match, "fuzz corpus", players, 0, replay::kFormatVersion, {},
                                  replay::ParentReplay{parent, "parent.crpl"});
        for (int t = 0; t < 180; ++t)
            if (const Status recorded = rec.stepped(match, step_bots()); !recorded)
                throw std::runtime_error(recorded.error().message);
        if (const auto footer = rec.finish(match); !footer)
            throw std::runtime_error(footer.error().message);
    }
    std::ifstream branch(tmp, std::ios::binary);
    write(dir, "branch-at-150", Bytes(std::istreambuf_iterator<char>(branch), {}));
    fs::remove(tmp);
}

void map_corpora(const fs::path& json_dir, const fs::path& binary_dir, const fs::path& maps) {
    for (const char* name : {"arena", "rink", "stadium"}) {
        std::ifstream f(maps / (std::string(name) + ".json"), std::ios::binary);
        const Bytes text(std::istreambuf_iterator<char>(f), {});
        write(json_dir, name, text);
        const auto map = maps::parse_map_json(std::string(text.begin(), text.end()), name);
        if (!map) throw std::runtime_error(map.error().message);
        write(binary_dir, name, protocol::map_to_binary(*map));
    }
}

// Tokens made with the fuzz key: whole, as text, the private part (which
// opens), and the plaintext the entry seals itself.
void token_corpus(const fs::path& dir) {
    const protocol::Key key = kFuzzTokenKey;
    protocol::TokenGrant small;
    small.player_id = 7;
    small.name = "ann";
    small.servers = {"127.0.0.1:27960"};
    protocol::TokenGrant large = small;
    large.name = "fifteen_letters";
    large.servers = {"127.0.0.1:27960", "[::1]:27960", "play.example.com:27960", "h:1"};
    large.user_data.assign(256, 0xA5);
    for (const auto& [name, grant] : {std::pair{"small", &small}, std::pair{"large", &large}}) {
        const Bytes token = protocol::make_connect_token(key, *grant, kFuzzTokenNow, 60).value();
        write(dir, std::string(name) + "-token", token);
        const std::string text = protocol::token_to_text(token);
        write(dir, std::string(name) + "-text", Bytes(text.begin(), text.end()));
        write(dir, std::string(name) + "-private",
              protocol::read_connect_token(token).value().private_part);
        write(dir, std::string(name) + "-plaintext",
              protocol::token_plaintext(*grant, protocol::make_token_key(),
                                        protocol::make_token_key()));
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: carom-fuzz-corpus SOURCE_ROOT\n";
        return 2;
    }
    spdlog::set_level(spdlog::level::off);
    const fs::path root = argv[1];
    try {
        server_corpus(root / "server/fuzz/corpus/server_datagrams");
        client_corpus(root / "shared/netclient/fuzz/corpus/client_updates");
        replay_corpus(root / "shared/replay/fuzz/corpus/replay_reader", root / "shared/game/maps");
        map_corpora(root / "shared/protocol/fuzz/corpus/map_json",
                    root / "shared/protocol/fuzz/corpus/map_binary", root / "shared/game/maps");
        token_corpus(root / "shared/protocol/fuzz/corpus/connect_token");
    } catch (const std::exception& e) {
        std::cerr << "carom-fuzz-corpus: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
