#include "forged.hpp"

#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "carom/client/connection.hpp"
#include "carom/maps/map_file.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/full_state.hpp"
#include "carom/protocol/map_codec.hpp"
#include "carom/protocol/seal.hpp"
#include "carom/protocol/update.hpp"

namespace carom::client::bench {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kClientId = 7;

Bytes copy_of(std::span<const std::uint8_t> s) {
    return {s.begin(), s.end()};
}

// The server's side: a 4 v 4 on the arena, stepped with random inputs (each
// player changes its input one tick in `change_one_in`), whose updates and
// full state a session would get.
class Room {
  public:
    Room(game::Map map, std::uint64_t change_one_in)
        : map_(std::move(map)), match_(map_, 11), change_one_in_(change_one_in) {
        for (game::Slot s = 0; s < match_.slot_count(); ++s)
            match_.join(s, fmt::format("p{}", s));
        step(120);
    }
    const game::Map& map() const { return map_; }
    std::uint64_t tick() const { return tick_; }

    void step(int ticks) {
        for (int i = 0; i < ticks; ++i) {
            std::vector<game::Input> inputs(match_.slot_count());
            protocol::Update changes;
            for (game::Slot s = 0; s < inputs.size(); ++s) {
                inputs[s] = rng_() % change_one_in_ == 0
                                ? game::Input::from_bits(static_cast<std::uint8_t>(rng_()))
                                : match_.last_input(s);
                if (inputs[s] != match_.last_input(s))
                    changes_.push_back(
                        {tick_ + 1, s,
                         protocol::InputDelta::between(match_.last_input(s), inputs[s])});
            }
            match_.step(inputs);
            ++tick_;
        }
    }
    Bytes full_state() const {
        protocol::RoomState s;
        s.tick = tick_;
        s.state_hash = match_.state_hash();
        s.match_seed = match_.seed();
        s.match_start_tick = tick_ - match_.tick();
        s.match = match_.save();
        s.bots.assign(match_.slot_count(), false);
        Bytes out;
        flatbuffers::FlatBufferBuilder b;
        protocol::encode_full_state(b, kClientId, s,
                                    [&](std::span<const std::uint8_t> d) { out = copy_of(d); });
        return out;
    }
    // The update of (baseline, tick], in the clear; of `claimed` ticks on
    // when given (the changes left out).
    Bytes update(std::uint64_t baseline, std::uint64_t claimed = 0) {
        protocol::Update u;
        u.tick = tick_ + claimed;
        u.baseline = claimed == 0 ? baseline : tick_;
        u.state = protocol::state_check(match_.state_hash());
        u.sequence_advance = static_cast<std::uint32_t>(tick_ - baseline);
        for (const protocol::InputChange& c : changes_)
            if (c.tick > baseline && claimed == 0) u.inputs.push_back(c);
        flatbuffers::FlatBufferBuilder b;
        return copy_of(protocol::encode_update(b, u, {match_.slot_count(), true}));
    }

  private:
    game::Map map_;
    game::Match match_;
    std::uint64_t change_one_in_;
    std::uint64_t tick_ = 1000;
    std::vector<protocol::InputChange> changes_;
    std::mt19937_64 rng_{5};
};

Bytes packet_of(net::Body type, flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<void> body) {
    return copy_of(protocol::finish_packet(b, kClientId, type, body));
}

// The server's end of the session: its key pair, and the seal agreed with
// the client's ConnectResponse.
struct ServerEnd {
    protocol::KeyPair keys = protocol::make_key_pair();
    std::optional<protocol::SessionSeal> seal;
    std::vector<Bytes> sent;  // by the client
    Bytes sealed(const Bytes& clear) {
        protocol::DatagramBuffer out{};
        return copy_of(seal->seal(clear, out));
    }
    // Sealed, then one byte of the ciphertext changed: what a forger sends.
    Bytes forged(const Bytes& clear) {
        Bytes bytes = sealed(clear);
        bytes[protocol::kSealHeaderBytes + 2] ^= 0x5A;
        return bytes;
    }
};

// A Connection that joined slot 0 and holds the room's state.
Connection joined(const Room& room, ServerEnd& server) {
    Connection c({},
                 [&server](std::span<const std::uint8_t> d) { server.sent.push_back(copy_of(d)); });
    c.connect(0);
    const std::uint64_t nonce =
        (*protocol::verify_packet(server.sent.back()))->body_as_ConnectRequest()->nonce();
    flatbuffers::FlatBufferBuilder b;
    const auto key = b.CreateVector(server.keys.public_key.data(), server.keys.public_key.size());
    c.on_datagram(
        packet_of(net::Body::Challenge, b, net::CreateChallenge(b, 1, nonce, key).Union()), 0);
    const net::ConnectResponse& r =
        *(*protocol::verify_packet(server.sent.back()))->body_as_ConnectResponse();
    const auto keys = protocol::server_session_keys(
        server.keys, {r.client_key()->data(), r.client_key()->size()});
    if (!keys) throw std::runtime_error("the bench's client key is refused");
    server.seal.emplace(*keys);
    b.Clear();
    const auto accepted =
        net::CreateAcceptedDirect(b, kClientId, 0, 0, 0, 60, 60, room.map().name.c_str(),
                                  protocol::map_hash(room.map()), 11, 8, 8, 4);
    c.on_datagram(server.sealed(packet_of(net::Body::Accepted, b, accepted.Union())), 0);
    c.set_map(game::CheckedMap(room.map()));
    c.on_datagram(server.sealed(room.full_state()), 0);
    if (c.replica() == nullptr || !c.replica()->holds())
        throw std::runtime_error("the bench's connection holds no state");
    return c;
}

template <typename F>
double ns_each(int n, F&& f) {
    const auto a = Clock::now();
    for (int i = 0; i < n; ++i)
        f(i);
    return std::chrono::duration<double, std::nano>(Clock::now() - a).count() / n;
}

}  // namespace

void print_forged_costs() {
    const game::Map arena =
        maps::load_map_file(std::filesystem::path(CAROM_MAPS_DIR) / "arena.json").value();
    Room room(arena, 6);  // the game's bot: a new input about every 100 ms
    ServerEnd server;
    Connection c = joined(room, server);
    constexpr int kN = 20'000;
    std::uint64_t now = 0;

    // The server's own updates, a tick each: what a client does 60 times a second.
    std::vector<Bytes> genuine;
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t held = room.tick();
        room.step(1);
        genuine.push_back(server.sealed(room.update(held)));
    }
    const double genuine_ns = ns_each(static_cast<int>(genuine.size()), [&](int i) {
        now += 16;
        c.on_datagram(genuine[static_cast<std::size_t>(i)], now);
    });
    const std::uint64_t held = room.tick();
    // Forged at the next tick (what the attacker reads from its own session),
    // and far ahead (1000 ticks): dropped on the tag, before any step.
    room.step(1);
    const Bytes next = server.forged(room.update(held));
    const double next_ns = ns_each(kN, [&](int) { c.on_datagram(next, now); });
    const Bytes far = server.forged(room.update(held, 1000));
    const double far_ns = ns_each(kN, [&](int) { c.on_datagram(far, now); });
    flatbuffers::FlatBufferBuilder b;
    const Bytes disconnect = server.forged(packet_of(
        net::Body::Disconnect, b, net::CreateDisconnect(b, net::DisconnectReason::kicked).Union()));
    const double disconnect_ns = ns_each(kN, [&](int) { c.on_datagram(disconnect, now); });
    const ConnectionStats& st = c.stats();

    // Before protocol 7 a forged update was stepped, then its proof failed
    // and the copy went back: a Replica stepping 1000 ticks and refusing them.
    const double stepped_1000_ns = [&] {
        Room r(arena, 200);  // few changes: 1000 ticks of them fit a datagram
        Replica rep(game::CheckedMap(r.map()), 0);
        const Bytes full = r.full_state();
        const auto fs = protocol::verify_packet(full);
        protocol::FullStateAssembly assembly;
        const game::Match probe(r.map(), 11);
        const auto state = assembly.add(*(*fs)->body_as_FullState(), probe.slot_count(),
                                        probe.puck_count(), probe.disc_count());
        if (!state || !state->has_value() || !rep.restore(**state))
            throw std::runtime_error("the bench's replica holds no state");
        const std::uint64_t base = r.tick();
        r.step(1000);
        const Bytes bytes = r.update(base);
        auto update = protocol::decode_update(**protocol::verify_server_update(bytes), r.tick(),
                                              {probe.slot_count(), true});
        if (!update) throw std::runtime_error(update.error().message);
        update->state ^= 1;  // what a forged one's check did: fail after the steps
        return ns_each(20, [&](int) { (void)rep.apply(*update); });
    }();

    fmt::print("\nforged server datagrams at a client holding a 4 v 4 (arena), {} of each\n", kN);
    fmt::print("  {:<44} {:>10} {:>16}\n", "datagram", "ns each", "1000/s take");
    const auto row = [](const char* what, double ns) {
        fmt::print("  {:<44} {:>10.0f} {:>14.3f} %\n", what, ns, ns * 1000.0 / 1e9 * 100.0);
    };
    row("the server's update, 1 tick (stepped)", genuine_ns);
    row("forged update, the next tick (dropped)", next_ns);
    row("forged update, 1000 ticks ahead (dropped)", far_ns);
    row("forged Disconnect (dropped)", disconnect_ns);
    row("before protocol 7: 1000 ticks stepped, undone", stepped_1000_ns);
    fmt::print("  counted: {} forged (bad tag), {} resyncs, {} steps in vain\n",
               st.refused_sealed[static_cast<std::size_t>(protocol::SealRefusal::bad_tag)],
               st.resyncs, st.steps_discarded);

    // The seal itself (ChaCha20-Poly1305, libsodium): a 32-byte datagram (a
    // quiet tick's update or input) and the largest (1200 bytes on the wire).
    fmt::print("\nsealing (ChaCha20-Poly1305 IETF, sequence as nonce), {} of each\n", kN);
    fmt::print("  {:<44} {:>10} {:>10}\n", "datagram", "seal ns", "open ns");
    for (const std::size_t plain : {std::size_t{32}, protocol::kMaxSessionDatagramBytes}) {
        Bytes datagram(plain, 0x5A);
        std::memcpy(datagram.data() + 4, protocol::kPacketIdentifier, 4);
        datagram[0] = 8;
        protocol::SessionKeys keys;
        keys.send = protocol::make_key_pair().public_key;
        keys.receive = keys.send;
        protocol::SessionSeal sender(keys), receiver(keys);
        std::vector<Bytes> sealed(kN);
        protocol::DatagramBuffer out{};
        const double seal_ns = ns_each(kN, [&](int i) {
            sealed[static_cast<std::size_t>(i)] = copy_of(sender.seal(datagram, out));
        });
        protocol::SealRefusal refused{};
        std::size_t opened = 0;
        const double open_ns = ns_each(kN, [&](int i) {
            opened += receiver.open(sealed[static_cast<std::size_t>(i)], out, refused).size();
        });
        if (opened != plain * static_cast<std::size_t>(kN))
            throw std::runtime_error("the bench's sealed datagrams did not open");
        fmt::print("  {:<44} {:>10.0f} {:>10.0f}\n",
                   fmt::format("{} B ({} B sealed)", plain, sealed[0].size()), seal_ns, open_ns);
    }
    print_token_costs();
}

void print_token_costs() {
    // Connect tokens: a backend makes one (XChaCha20-Poly1305 under the
    // server's key, two fresh random keys), the server opens its private
    // part in the handshake and mixes its keys into the session's.
    constexpr int kTokens = 5'000;
    constexpr std::uint64_t kNow = 1'800'000'000;
    const protocol::Key key = protocol::make_token_key();
    protocol::TokenGrant small;
    small.player_id = 7;
    small.name = "ann";
    small.servers = {"127.0.0.1:27960"};
    protocol::TokenGrant large;
    large.player_id = 7;
    large.name = std::string(protocol::kMaxNameBytes, 'n');
    for (std::size_t i = 0; i < protocol::kMaxTokenServers; ++i)
        large.servers.push_back(std::string(protocol::kMaxTokenServerBytes - 1, 'a') +
                                std::to_string(i));
    large.user_data.assign(protocol::kMaxTokenUserDataBytes, 0x5A);
    fmt::print("\nconnect tokens (XChaCha20-Poly1305 under the server's key), {} of each\n",
               kTokens);
    fmt::print("  {:<36} {:>7} {:>8} {:>8} {:>8} {:>8}\n", "token", "bytes", "private", "text",
               "make ns", "open ns");
    for (const auto* grant : {&small, &large}) {
        std::vector<Bytes> made(kTokens);
        const double make_ns = ns_each(kTokens, [&](int i) {
            made[static_cast<std::size_t>(i)] =
                protocol::make_connect_token(key, *grant, kNow, 60).value();
        });
        const protocol::ConnectToken token = protocol::read_connect_token(made[0]).value();
        std::size_t opened = 0;
        const double open_ns = ns_each(kTokens, [&](int i) {
            const auto t = protocol::read_connect_token(made[static_cast<std::size_t>(i)]).value();
            opened += protocol::open_connect_token(key, t.private_part, kNow).token ? 1U : 0U;
        });
        if (opened != kTokens) throw std::runtime_error("the bench's tokens did not open");
        fmt::print("  {:<36} {:>7} {:>8} {:>8} {:>8.0f} {:>8.0f}\n",
                   grant == &small ? "1 server, name ann, no user data"
                                   : "the largest (4 servers, 256 B of data)",
                   made[0].size(), token.private_part.size(),
                   protocol::token_to_text(made[0]).size(), make_ns, open_ns);
    }
    protocol::SessionKeys exchanged;
    exchanged.send = protocol::make_token_key();
    exchanged.receive = protocol::make_token_key();
    const protocol::Key c2s = protocol::make_token_key();
    const protocol::Key s2c = protocol::make_token_key();
    volatile std::uint8_t sink = 0;  // keeps the work from being optimised away
    const double mix_ns = ns_each(kTokens, [&](int) {
        sink = static_cast<std::uint8_t>(
            sink ^ protocol::mix_token_keys(exchanged, c2s, s2c, false).send[0]);
    });
    fmt::print("  the token's keys mixed into a session's (2 BLAKE2b-256): {:.0f} ns\n", mix_ns);
}

}  // namespace carom::client::bench
