#include "carom/protocol/connect_token.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace carom::protocol {
namespace {

static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == kKeyBytes &&
              crypto_aead_xchacha20poly1305_ietf_NPUBBYTES == kTokenNonceBytes &&
              crypto_aead_xchacha20poly1305_ietf_ABYTES == kTokenTagBytes);
static_assert(kMaxTokenPrivateBytes == 671);
static_assert(kMaxConnectTokenBytes <= 1024);

constexpr std::array<std::uint8_t, 4> kMagic{'C', 'T', 'O', 'K'};

void initialise() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

// Little-endian writing and bounded reading.
class Writer {
  public:
    void u8(std::uint8_t v) { bytes.push_back(v); }
    void le(std::uint64_t v, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i)
            bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    void raw(std::span<const std::uint8_t> s) { bytes.insert(bytes.end(), s.begin(), s.end()); }
    void text(std::string_view s) {
        u8(static_cast<std::uint8_t>(s.size()));
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    std::vector<std::uint8_t> bytes;
};

class Reader {
  public:
    explicit Reader(std::span<const std::uint8_t> s) : s_(s) {}
    bool ok() const { return ok_; }
    bool at_end() const { return at_ == s_.size(); }
    std::span<const std::uint8_t> take(std::size_t n) {
        if (!ok_ || s_.size() - at_ < n) {
            ok_ = false;
            return {};
        }
        const auto out = s_.subspan(at_, n);
        at_ += n;
        return out;
    }
    std::uint64_t le(std::size_t n) {
        const auto b = take(n);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < b.size(); ++i)
            v |= std::uint64_t{b[i]} << (8 * i);
        return v;
    }
    std::string text(std::size_t max) {
        const auto n = static_cast<std::size_t>(le(1));
        if (n > max) ok_ = false;
        const auto b = take(n);
        return {b.begin(), b.end()};
    }
    Key key() {
        Key k{};
        const auto b = take(kKeyBytes);
        std::copy(b.begin(), b.end(), k.begin());
        return k;
    }

  private:
    std::span<const std::uint8_t> s_;
    std::size_t at_ = 0;
    bool ok_ = true;
};

void write_header(Writer& w, const TokenHeader& h) {
    w.le(h.version, 4);
    w.le(h.protocol, 4);
    w.le(h.created_unix_s, 8);
    w.le(h.expires_unix_s, 8);
}

TokenHeader read_header(Reader& r) {
    TokenHeader h;
    h.version = static_cast<std::uint32_t>(r.le(4));
    h.protocol = static_cast<std::uint32_t>(r.le(4));
    h.created_unix_s = r.le(8);
    h.expires_unix_s = r.le(8);
    return h;
}

std::vector<std::string> read_servers(Reader& r) {
    const auto count = static_cast<std::size_t>(r.le(1));
    std::vector<std::string> servers;
    if (count == 0 || count > kMaxTokenServers) {
        r.take(~std::size_t{0});  // refuses the rest
        return servers;
    }
    for (std::size_t i = 0; i < count; ++i)
        servers.push_back(r.text(kMaxTokenServerBytes));
    return servers;
}

Status check_grant(const TokenGrant& g) {
    if (g.name.empty() || clean_name(g.name) != g.name)
        return fail("name '" + g.name + "': 1 to " + std::to_string(kMaxNameBytes) +
                    " printable ASCII characters, no spaces");
    if (g.servers.empty() || g.servers.size() > kMaxTokenServers)
        return fail("a token names 1 to " + std::to_string(kMaxTokenServers) + " servers");
    for (const auto& s : g.servers)
        if (s.empty() || s.size() > kMaxTokenServerBytes)
            return fail("server '" + s + "': 1 to " + std::to_string(kMaxTokenServerBytes) +
                        " bytes");
    if (g.user_data.size() > kMaxTokenUserDataBytes)
        return fail("user data: " + std::to_string(g.user_data.size()) + " bytes, at most " +
                    std::to_string(kMaxTokenUserDataBytes));
    return {};
}

}  // namespace

Key make_token_key() {
    initialise();
    Key key{};
    crypto_aead_xchacha20poly1305_ietf_keygen(key.data());
    return key;
}

std::string key_to_hex(const Key& key) {
    std::array<char, 2 * kKeyBytes + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), key.data(), key.size());
    return std::string(hex.data(), 2 * kKeyBytes);
}

Result<Key> key_from_hex(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const auto last = text.find_last_not_of(" \t\r\n");
    if (first != std::string_view::npos) text = text.substr(first, last - first + 1);
    Key key{};
    std::size_t n = 0;
    if (text.size() != 2 * kKeyBytes ||
        sodium_hex2bin(key.data(), key.size(), text.data(), text.size(), nullptr, &n, nullptr) !=
            0 ||
        n != kKeyBytes)
        return fail("not a token key: 64 hexadecimal digits expected");
    return key;
}

std::vector<std::uint8_t> token_plaintext(const TokenGrant& grant, const Key& client_to_server,
                                          const Key& server_to_client) {
    Writer plain;
    plain.le(grant.player_id, 8);
    plain.text(grant.name);
    plain.u8(static_cast<std::uint8_t>(grant.servers.size()));
    for (const auto& s : grant.servers)
        plain.text(s);
    plain.raw(client_to_server);
    plain.raw(server_to_client);
    plain.le(grant.user_data.size(), 2);
    plain.raw(grant.user_data);
    return std::move(plain.bytes);
}

std::vector<std::uint8_t> seal_token_plaintext(const Key& token_key, const TokenHeader& header,
                                               std::span<const std::uint8_t> plain) {
    initialise();
    Writer priv;
    write_header(priv, header);
    std::array<std::uint8_t, kTokenNonceBytes> nonce{};
    randombytes_buf(nonce.data(), nonce.size());
    priv.raw(nonce);
    const std::size_t sealed_at = priv.bytes.size();
    priv.bytes.resize(sealed_at + plain.size() + kTokenTagBytes);
    unsigned long long sealed_size = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(
        priv.bytes.data() + sealed_at, &sealed_size, plain.data(), plain.size(), priv.bytes.data(),
        kTokenHeaderBytes, nullptr, nonce.data(), token_key.data());
    return std::move(priv.bytes);
}

Result<std::vector<std::uint8_t>> make_connect_token(const Key& token_key, const TokenGrant& grant,
                                                     std::uint64_t now_unix_s,
                                                     std::uint64_t lifetime_s) {
    if (auto checked = check_grant(grant); !checked) return checked.error();
    if (lifetime_s == 0) return fail("a token's lifetime is at least 1 second");
    initialise();
    Key c2s{};
    Key s2c{};
    randombytes_buf(c2s.data(), c2s.size());
    randombytes_buf(s2c.data(), s2c.size());
    TokenHeader header;
    header.created_unix_s = now_unix_s;
    header.expires_unix_s = now_unix_s + lifetime_s;
    std::vector<std::uint8_t> plain = token_plaintext(grant, c2s, s2c);
    const std::vector<std::uint8_t> priv = seal_token_plaintext(token_key, header, plain);
    sodium_memzero(plain.data(), plain.size());

    Writer token;
    token.raw(kMagic);
    token.le(priv.size(), 2);
    token.raw(priv);
    token.raw(c2s);
    token.raw(s2c);
    token.u8(static_cast<std::uint8_t>(grant.servers.size()));
    for (const auto& s : grant.servers)
        token.text(s);
    return std::move(token.bytes);
}

Result<ConnectToken> read_connect_token(std::span<const std::uint8_t> bytes) {
    Reader r(bytes);
    const auto magic = r.take(kMagic.size());
    if (!r.ok() || !std::equal(magic.begin(), magic.end(), kMagic.begin()))
        return fail("not a connect token");
    const auto private_size = static_cast<std::size_t>(r.le(2));
    if (private_size < kTokenHeaderBytes + kTokenNonceBytes + kTokenTagBytes ||
        private_size > kMaxTokenPrivateBytes)
        return fail("connect token: its private part is " + std::to_string(private_size) +
                    " bytes");
    ConnectToken token;
    const auto priv = r.take(private_size);
    token.private_part.assign(priv.begin(), priv.end());
    token.client_to_server = r.key();
    token.server_to_client = r.key();
    token.servers = read_servers(r);
    if (!r.ok() || !r.at_end()) return fail("connect token: cut or malformed");
    Reader h(token.private_part);
    token.header = read_header(h);
    if (token.header.version != kConnectTokenVersion)
        return fail("connect token: version " + std::to_string(token.header.version) +
                    ", this program reads " + std::to_string(kConnectTokenVersion));
    return token;
}

TokenOpening open_connect_token(const Key& token_key, std::span<const std::uint8_t> private_part,
                                std::uint64_t now_unix_s) {
    TokenOpening out;
    if (private_part.size() < kTokenHeaderBytes + kTokenNonceBytes + kTokenTagBytes ||
        private_part.size() > kMaxTokenPrivateBytes)
        return out;
    Reader r(private_part);
    const TokenHeader header = read_header(r);
    const auto nonce = r.take(kTokenNonceBytes);
    if (header.version != kConnectTokenVersion || header.protocol != kProtocolVersion) return out;
    initialise();
    const auto sealed = private_part.subspan(kTokenHeaderBytes + kTokenNonceBytes);
    std::array<std::uint8_t, kMaxTokenPlainBytes> plain{};
    unsigned long long plain_size = 0;
    if (sealed.size() - kTokenTagBytes > plain.size() ||
        crypto_aead_xchacha20poly1305_ietf_decrypt(
            plain.data(), &plain_size, nullptr, sealed.data(), sealed.size(), private_part.data(),
            kTokenHeaderBytes, nonce.data(), token_key.data()) != 0)
        return out;
    // Only the key's holder made it: what follows is still read with bounds.
    Reader p(std::span<const std::uint8_t>(plain.data(), static_cast<std::size_t>(plain_size)));
    OpenedToken t;
    t.header = header;
    t.grant.player_id = p.le(8);
    t.grant.name = p.text(kMaxNameBytes);
    t.grant.servers = read_servers(p);
    t.client_to_server = p.key();
    t.server_to_client = p.key();
    const auto data_size = static_cast<std::size_t>(p.le(2));
    if (data_size > kMaxTokenUserDataBytes) return out;
    const auto data = p.take(data_size);
    t.grant.user_data.assign(data.begin(), data.end());
    sodium_memzero(plain.data(), plain.size());
    if (!p.ok() || !p.at_end() || clean_name(t.grant.name) != t.grant.name) return out;
    for (std::size_t i = 0; i < 8; ++i)
        t.id |= std::uint64_t{nonce[i]} << (8 * i);
    if (now_unix_s > header.expires_unix_s + kTokenClockSkewS) {
        out.refused = TokenRefusal::expired;
        return out;
    }
    out.token = std::move(t);
    return out;
}

std::string token_to_text(std::span<const std::uint8_t> token) {
    constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
    std::string text(sodium_base64_encoded_len(token.size(), kVariant), '\0');
    sodium_bin2base64(text.data(), text.size(), token.data(), token.size(), kVariant);
    text.resize(text.size() - 1);  // the terminating zero
    return text;
}

Result<std::vector<std::uint8_t>> token_from_text(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const auto last = text.find_last_not_of(" \t\r\n");
    if (first == std::string_view::npos) return fail("no connect token: the text is empty");
    text = text.substr(first, last - first + 1);
    std::vector<std::uint8_t> bytes(text.size());
    std::size_t n = 0;
    if (sodium_base642bin(bytes.data(), bytes.size(), text.data(), text.size(), nullptr, &n,
                          nullptr, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
        return fail("not a connect token: base64url text expected");
    bytes.resize(n);
    return bytes;
}

Result<std::vector<std::uint8_t>> load_connect_token(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return fail(path + ": cannot read the connect token");
    auto bytes = token_from_text(text.str());
    if (!bytes) return bytes.error_in(path);
    if (auto token = read_connect_token(*bytes); !token) return token.error_in(path);
    return bytes;
}

SessionKeys mix_token_keys(const SessionKeys& exchanged, const Key& client_to_server,
                           const Key& server_to_client, bool client) {
    initialise();
    const auto mix = [](const Key& agreed, const Key& token_key) {
        Key out{};
        crypto_generichash(out.data(), out.size(), agreed.data(), agreed.size(), token_key.data(),
                           token_key.size());
        return out;
    };
    SessionKeys keys;
    keys.send = mix(exchanged.send, client ? client_to_server : server_to_client);
    keys.receive = mix(exchanged.receive, client ? server_to_client : client_to_server);
    return keys;
}

}  // namespace carom::protocol
