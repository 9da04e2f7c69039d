#pragma once
// Connect tokens (schemas/PROTOCOL.md, "Connect tokens"): what an operator's
// backend gives a player so that a server started with --token-key admits
// it. A token has a private part only the server can open (XChaCha20-Poly1305
// under the server's token key, the public header as associated data) and a
// public part for the client: the servers it is good for and the session's
// two token keys, which the client mixes into the keys of the handshake.
// Not the reclaim token of the hello: that one is the client's own.
//
// In carom::seal with the session's cryptography (libsodium).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carom/protocol/seal.hpp"
#include "carom/result.hpp"

namespace carom::protocol {

inline constexpr std::uint32_t kConnectTokenVersion = 1;
// The private part's header (version, protocol, created, expires) and nonce.
inline constexpr std::size_t kTokenHeaderBytes = 24;
inline constexpr std::size_t kTokenNonceBytes = 24;
inline constexpr std::size_t kTokenTagBytes = 16;
inline constexpr std::size_t kMaxTokenServers = 4;
inline constexpr std::size_t kMaxTokenServerBytes = 64;  // one "HOST:PORT"
inline constexpr std::size_t kMaxTokenUserDataBytes = 256;
// The private part's plaintext at most: id, name, servers, two keys, user data.
inline constexpr std::size_t kMaxTokenPlainBytes =
    8 + (1 + kMaxNameBytes) + (1 + kMaxTokenServers * (1 + kMaxTokenServerBytes)) + 2 * kKeyBytes +
    (2 + kMaxTokenUserDataBytes);
// What the client sends in ConnectResponse.connect_token, at most 671 bytes.
inline constexpr std::size_t kMaxTokenPrivateBytes =
    kTokenHeaderBytes + kTokenNonceBytes + kMaxTokenPlainBytes + kTokenTagBytes;
// A token as the backend hands it over (private and public parts), at most.
inline constexpr std::size_t kMaxConnectTokenBytes =
    6 + kMaxTokenPrivateBytes + 2 * kKeyBytes + 1 + kMaxTokenServers * (1 + kMaxTokenServerBytes);
// How far the server's clock may lag the backend's: a token is expired only
// this long after its expiry.
inline constexpr std::uint64_t kTokenClockSkewS = 10;

// The public header, in the clear (and authenticated) in the private part.
struct TokenHeader {
    std::uint32_t version = kConnectTokenVersion;
    std::uint32_t protocol = kProtocolVersion;
    std::uint64_t created_unix_s = 0;
    std::uint64_t expires_unix_s = 0;
};

// What a backend puts in a token.
struct TokenGrant {
    std::uint64_t player_id = 0;
    std::string name;                  // the server's name rules (clean_name) hold already
    std::vector<std::string> servers;  // "HOST:PORT", 1..kMaxTokenServers
    std::vector<std::uint8_t> user_data;
};

// A token as its client reads it.
struct ConnectToken {
    TokenHeader header;
    std::vector<std::string> servers;
    Key client_to_server{};  // token keys, mixed into the handshake's (mix_token_keys)
    Key server_to_client{};
    std::vector<std::uint8_t> private_part;  // sent as it is
};

// A private part the server opened.
struct OpenedToken {
    TokenHeader header;
    TokenGrant grant;
    Key client_to_server{};
    Key server_to_client{};
    std::uint64_t id = 0;  // the first 8 bytes of its random nonce: one use each
};

// A new random token key (libsodium's generator); as a file, one hex line.
Key make_token_key();
std::string key_to_hex(const Key& key);
// The key of a key file's text (64 hexadecimal digits, white space around
// allowed), or the reason it is not one.
Result<Key> key_from_hex(std::string_view text);

// A new token of `grant` good from `now_unix_s` for `lifetime_s` seconds,
// with fresh random session keys; the reason when the grant breaks a limit.
Result<std::vector<std::uint8_t>> make_connect_token(const Key& token_key, const TokenGrant& grant,
                                                     std::uint64_t now_unix_s,
                                                     std::uint64_t lifetime_s);
// The two steps of make_connect_token, for tests and fuzzing (which reach
// the reader behind the tag with them): a grant's plaintext as it is laid
// out (unchecked), and a private part sealing any plaintext under the key.
std::vector<std::uint8_t> token_plaintext(const TokenGrant& grant, const Key& client_to_server,
                                          const Key& server_to_client);
std::vector<std::uint8_t> seal_token_plaintext(const Key& token_key, const TokenHeader& header,
                                               std::span<const std::uint8_t> plain);
// The client's reading of a token (no key needed), or why it is not one.
Result<ConnectToken> read_connect_token(std::span<const std::uint8_t> token);

// Why a private part was refused; the server counts and denies by them.
enum class TokenRefusal : std::uint8_t {
    invalid = 0,  // malformed, of another version, or not opened by the key (forged, changed)
    expired,
    count_
};
struct TokenOpening {
    std::optional<OpenedToken> token;
    TokenRefusal refused = TokenRefusal::invalid;  // when !token
};
// Opens a private part (ConnectResponse.connect_token) with the server's
// key at `now_unix_s`. Never throws on any bytes.
TokenOpening open_connect_token(const Key& token_key, std::span<const std::uint8_t> private_part,
                                std::uint64_t now_unix_s);

// A token as text (base64url without padding: a file's line, a URL
// fragment), and back (white space around allowed).
std::string token_to_text(std::span<const std::uint8_t> token);
Result<std::vector<std::uint8_t>> token_from_text(std::string_view text);
// A token file's bytes (carom-token make's line), checked to read as a
// token; the reason, naming the file, when it does not.
Result<std::vector<std::uint8_t>> load_connect_token(const std::string& path);

// One end's session keys with a token's mixed in: each direction's key is
// BLAKE2b-256 keyed with the token's key of that direction over the key the
// exchange agreed. `client`: whose keys these are (the client sends with
// client_to_server, the server receives with it).
SessionKeys mix_token_keys(const SessionKeys& exchanged, const Key& client_to_server,
                           const Key& server_to_client, bool client);

}  // namespace carom::protocol
