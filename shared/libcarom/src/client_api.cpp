// A client without sockets: play::Player (the model carom-client runs)
// with the datagrams it sends queued for the caller to take.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "api_support.hpp"
#include "carom/play/player.hpp"
#include "carom/protocol/connect_token.hpp"
#include "carom/protocol/map_codec.hpp"
#include "client_maps.hpp"
#include "handles.hpp"
#include "scene_api.hpp"

struct carom_client {
    std::deque<std::vector<std::uint8_t>> outbox;  // oldest first
    carom::capi::ClientMaps maps;                  // before the player, which uses it
    std::unique_ptr<carom::play::Player> player;
    // Borrowed views: the map once known, the copy of the match once held.
    std::unique_ptr<carom_map> map;
    std::uint64_t map_named = 0;  // the Accepted map hash `map` was made for
    carom_match match_view;
};

namespace carom::capi {
namespace {

// The queue keeps the newest datagrams a caller that stopped taking them
// left behind: a client sends a few a tick, so this is many seconds of them.
constexpr std::size_t kOutboxMax = 1024;

carom_client& client_of(carom_client* client) {
    return *require(client, "client");
}

// The borrowed views follow the player: its map once it has one (the
// connection's checked map, shared, named by the hash Accepted gave: a new
// handle only for another room's map), its copy of the match while it holds
// one.
void refresh(carom_client& c) {
    const game::CheckedMap* map = c.player->checked_map();
    const std::uint64_t named = c.player->connection().admission().map_hash;
    if (map == nullptr) {
        c.map.reset();
    } else if (!c.map || c.map_named != named) {
        c.map.reset(new carom_map{*map, named});
        c.map_named = named;
    }
    const game::Match* match = c.player->match();
    if (match == nullptr) {
        c.match_view.match = nullptr;
    } else {
        borrow(c.match_view, *match, c.map ? c.map->hash : 0, {});
    }
}

}  // namespace
}  // namespace carom::capi

using namespace carom;
using namespace carom::capi;

extern "C" {

void carom_client_config_init(carom_client_config* config) {
    if (config == nullptr) return;
    *config = {};
    config->room = -1;
}

carom_status carom_client_create(const carom_client_config* config, carom_client** out) {
    return guarded([&] {
        const carom_client_config& c = *require(config, "config");
        require(out, "out");
        play::PlayerConfig p;
        p.connection.name = c.name != nullptr ? c.name : "player";
        p.connection.room = c.room;
        p.connection.spectator = c.spectator != 0;
        p.connection.token = c.token;
        p.bot = c.bot != 0;
        p.keys.releases = c.key_releases != 0;
        if (c.connect_token_size > 0) {
            require(c.connect_token, "config.connect_token");
            p.connection.connect_token.assign(c.connect_token,
                                              c.connect_token + c.connect_token_size);
            if (auto token = protocol::read_connect_token(p.connection.connect_token); !token)
                throw Failure{CAROM_ERROR_DATA, token.error().message};
        }
        auto client = std::make_unique<carom_client>();
        client->maps.set_files(file_map_store(c.map_dirs, c.map_cache));
        carom_client* self = client.get();
        client->player = std::make_unique<play::Player>(
            std::move(p), client->maps, [self](std::span<const std::uint8_t> bytes) {
                if (self->outbox.size() == kOutboxMax) self->outbox.pop_front();
                self->outbox.emplace_back(bytes.begin(), bytes.end());
            });
        *out = client.release();
    });
}

void carom_client_free(carom_client* client) {
    delete client;
}

carom_status carom_client_start(carom_client* client, uint64_t now_ms) {
    return guarded([&] { client_of(client).player->start(now_ms); });
}

carom_status carom_client_receive(carom_client* client, const uint8_t* bytes, size_t size,
                                  uint64_t now_ms) {
    return guarded([&] {
        carom_client& c = client_of(client);
        if (size > 0) require(bytes, "bytes");
        c.player->on_datagram({bytes, size}, now_ms);
        refresh(c);
    });
}

carom_status carom_client_tick(carom_client* client, uint64_t now_ms) {
    return guarded([&] {
        carom_client& c = client_of(client);
        c.player->tick(now_ms);
        refresh(c);
    });
}

carom_status carom_client_set_input(carom_client* client, uint8_t input) {
    return guarded([&] { client_of(client).player->steer(game::Input::from_bits(input)); });
}

carom_status carom_client_key(carom_client* client, int32_t key, int32_t down, uint64_t now_ms) {
    return guarded([&] {
        carom_client& c = client_of(client);
        if (key < CAROM_KEY_UP || key > CAROM_KEY_KICK)
            throw Failure{CAROM_ERROR_ARGUMENT,
                          "key " + std::to_string(key) + " is not a carom_key"};
        static_assert(static_cast<int>(play::Key::up) == CAROM_KEY_UP &&
                      static_cast<int>(play::Key::down) == CAROM_KEY_DOWN &&
                      static_cast<int>(play::Key::left) == CAROM_KEY_LEFT &&
                      static_cast<int>(play::Key::right) == CAROM_KEY_RIGHT &&
                      static_cast<int>(play::Key::kick) == CAROM_KEY_KICK);
        const auto k = static_cast<play::Key>(key);
        if (down != 0) {
            c.player->press(k, now_ms);
        } else {
            c.player->release(k);
        }
    });
}

carom_status carom_client_add_map(carom_client* client, const uint8_t* bytes, size_t size) {
    return guarded([&] {
        carom_client& c = client_of(client);
        if (size > 0) require(bytes, "bytes");
        if (const Status offered = c.maps.offered().offer({bytes, size}, "the host's cache");
            !offered)
            throw Failure{CAROM_ERROR_DATA, offered.error().message};
    });
}

carom_status carom_client_map_bytes(const carom_client* client, uint8_t* buffer, size_t capacity,
                                    size_t* size) {
    return guarded([&] {
        const carom_client& c = *require(client, "client");
        require(size, "size");
        const game::CheckedMap* map = c.player->checked_map();
        if (map == nullptr) throw Failure{CAROM_ERROR_STATE, "the room's map is not known yet"};
        // carom's encoder makes the bytes the server sent (the hash Accepted named).
        const std::vector<std::uint8_t> bytes = protocol::map_to_binary(map->get());
        *size = bytes.size();
        if (capacity >= bytes.size())
            std::copy(bytes.begin(), bytes.end(), require(buffer, "buffer"));
    });
}

carom_status carom_client_quit(carom_client* client, uint64_t now_ms) {
    return guarded([&] { client_of(client).player->quit(now_ms); });
}

carom_status carom_client_take_datagram(carom_client* client, uint8_t* buffer, size_t capacity,
                                        size_t* size) {
    return guarded([&] {
        carom_client& c = client_of(client);
        require(size, "size");
        require(buffer, "buffer");
        if (capacity < CAROM_MAX_DATAGRAM)
            throw Failure{CAROM_ERROR_ARGUMENT, "a buffer of " + std::to_string(capacity) +
                                                    " bytes: CAROM_MAX_DATAGRAM (" +
                                                    std::to_string(CAROM_MAX_DATAGRAM) +
                                                    ") at least"};
        *size = 0;
        if (c.outbox.empty()) return;
        const std::vector<std::uint8_t>& d = c.outbox.front();
        std::copy(d.begin(), d.end(), buffer);
        *size = d.size();
        c.outbox.pop_front();
    });
}

carom_status carom_client_get_info(const carom_client* client, carom_client_info* out) {
    return guarded([&] {
        const play::Player& p = *require(client, "client")->player;
        const client::Connection& conn = p.connection();
        carom_client_info& i = *require(out, "out");
        i = {};
        i.state = static_cast<int32_t>(conn.state());
        const client::Admission& a = conn.admission();
        i.client_id = a.client_id;
        i.room = a.room;
        i.slot = a.slot;
        i.team = a.team;
        copy_text(i.map_name, a.map_name);
        i.has_map = p.map() != nullptr ? 1 : 0;
        copy_text(i.map_source, p.map_source());
        i.has_state = p.match() != nullptr ? 1 : 0;
        i.server_tick = conn.replica() != nullptr ? conn.replica()->tick() : 0;
        const client::ConnectionStats& st = conn.stats();
        i.rtt_ms = st.rtt_ms.empty() ? -1.0 : st.rtt_ms.back();
        i.full_states = st.full_states;
        i.state_check_failures = st.hash_mismatches;
        i.resyncs = st.resyncs;
        i.bytes_in = st.bytes_in;
        i.bytes_out = st.bytes_out;
        if (const auto ending = p.ending()) {
            i.ended = 1;
            i.exit_code = ending->exit_code;
            copy_text(i.message, ending->message);
        }
    });
}

const carom_map* carom_client_map(const carom_client* client) {
    return client != nullptr ? client->map.get() : nullptr;
}

const carom_match* carom_client_match(const carom_client* client) {
    return client != nullptr && client->match_view.match != nullptr ? &client->match_view : nullptr;
}

carom_status carom_client_scene(carom_client* client, uint64_t now_ms, carom_scene_disk* disks,
                                size_t capacity, size_t* count, carom_scene_hud* hud) {
    return guarded([&] {
        carom_client& c = client_of(client);
        const render::Scene scene = c.player->scene(now_ms, false);
        fill_scene(scene, disks, capacity, count, hud);
    });
}
}
