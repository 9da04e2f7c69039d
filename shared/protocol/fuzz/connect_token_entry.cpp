// Fuzz entry for connect tokens: any bytes as a whole token (the client's
// reading), as its text, as a private part (the server's opening), and as
// a private part's plaintext sealed with the key, so that mutations reach
// the reader behind the tag.
#include <string_view>

#include "carom/protocol/connect_token.hpp"
#include "entries.hpp"

namespace carom::fuzz {

int connect_token(std::span<const std::uint8_t> input) {
    const protocol::Key& key = kFuzzTokenKey;
    (void)protocol::read_connect_token(input);
    (void)protocol::token_from_text(
        std::string_view(reinterpret_cast<const char*>(input.data()), input.size()));
    (void)protocol::open_connect_token(key, input, kFuzzTokenNow);
    protocol::TokenHeader header;
    header.created_unix_s = kFuzzTokenNow;
    header.expires_unix_s = kFuzzTokenNow + 60;
    const auto opened = protocol::open_connect_token(
        key, protocol::seal_token_plaintext(key, header, input), kFuzzTokenNow);
    // What opens is within its limits.
    if (opened.token && (opened.token->grant.servers.empty() ||
                         opened.token->grant.servers.size() > protocol::kMaxTokenServers ||
                         opened.token->grant.user_data.size() > protocol::kMaxTokenUserDataBytes))
        __builtin_trap();
    return 0;
}

}  // namespace carom::fuzz
