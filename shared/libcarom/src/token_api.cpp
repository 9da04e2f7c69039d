// Connect tokens for a backend: the key and carom_token_make, as
// carom-token's keygen and make.
#include <algorithm>
#include <string>
#include <vector>

#include "api_support.hpp"
#include "carom/client/host_port.hpp"
#include "carom/protocol/connect_token.hpp"

using namespace carom;
using namespace carom::capi;

static_assert(CAROM_TOKEN_KEY_BYTES == protocol::kKeyBytes);
static_assert(CAROM_MAX_CONNECT_TOKEN == protocol::kMaxConnectTokenBytes);

extern "C" {

carom_status carom_token_keygen(uint8_t* key) {
    return guarded([&] {
        const protocol::Key k = protocol::make_token_key();
        std::copy(k.begin(), k.end(), require(key, "key"));
    });
}

carom_status carom_token_make(const uint8_t* key, uint64_t player_id, const char* name,
                              const char* const* servers, size_t server_count,
                              const uint8_t* user_data, size_t user_data_size, uint64_t now_unix_s,
                              uint64_t lifetime_s, uint8_t* token, size_t capacity, size_t* size) {
    return guarded([&] {
        require(key, "key");
        require(size, "size");
        protocol::Key k{};
        std::copy_n(key, k.size(), k.begin());
        protocol::TokenGrant grant;
        grant.player_id = player_id;
        grant.name = require(name, "name");
        if (server_count > 0) require(servers, "servers");
        for (std::size_t i = 0; i < server_count && i <= protocol::kMaxTokenServers; ++i) {
            grant.servers.emplace_back(require(servers[i], "a server"));
            // The client dials the token's first server: each must be HOST:PORT.
            if (const auto hp = client::parse_host_port(grant.servers.back()); !hp)
                throw Failure{CAROM_ERROR_ARGUMENT,
                              "server " + grant.servers.back() + ": " + hp.error().message};
        }
        if (user_data_size > 0) {
            require(user_data, "user_data");
            grant.user_data.assign(user_data, user_data + user_data_size);
        }
        const auto made = protocol::make_connect_token(k, grant, now_unix_s, lifetime_s);
        if (!made) throw Failure{CAROM_ERROR_ARGUMENT, made.error().message};
        *size = made->size();
        if (capacity < made->size())
            throw Failure{CAROM_ERROR_ARGUMENT, "the buffer holds " + std::to_string(capacity) +
                                                    " bytes, the token " +
                                                    std::to_string(made->size())};
        std::copy(made->begin(), made->end(), require(token, "token"));
    });
}

}  // extern "C"
