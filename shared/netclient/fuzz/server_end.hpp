#pragma once
// The server's end of a fuzzed client's handshake and session: a Challenge
// that answers the client's attempt (its nonce, a key), the keys agreed from
// the client's ConnectResponse, and the seal of what the server sends, so
// that the fuzzed datagrams reach past the seal to the decoders.
#include <optional>
#include <span>
#include <vector>

#include "carom/client/connection.hpp"
#include "carom/protocol/seal.hpp"

namespace carom::fuzz {

struct ServerEnd {
    protocol::KeyPair keys = protocol::make_key_pair();
    std::vector<std::vector<std::uint8_t>> sent;  // by the client
    std::optional<protocol::SessionSeal> seal;

    client::Connection::SendFn sender() {
        return [this](std::span<const std::uint8_t> d) { sent.emplace_back(d.begin(), d.end()); };
    }
    // The Challenge to the client's newest ConnectRequest.
    std::vector<std::uint8_t> challenge(std::uint64_t cookie) const {
        std::uint64_t nonce = 0;
        for (auto it = sent.rbegin(); it != sent.rend(); ++it)
            if (const auto p = protocol::verify_packet(*it); p && (*p)->body_as_ConnectRequest()) {
                nonce = (*p)->body_as_ConnectRequest()->nonce();
                break;
            }
        flatbuffers::FlatBufferBuilder b;
        const auto key = b.CreateVector(keys.public_key.data(), keys.public_key.size());
        const auto body = net::CreateChallenge(b, cookie, nonce, key);
        const auto bytes = protocol::finish_packet(b, 0, net::Body::Challenge, body.Union());
        return {bytes.begin(), bytes.end()};
    }
    // The keys of the client's newest ConnectResponse; false without one.
    bool agree() {
        for (auto it = sent.rbegin(); it != sent.rend(); ++it) {
            const auto p = protocol::verify_packet(*it);
            if (!p || (*p)->body_as_ConnectResponse() == nullptr) continue;
            const auto* key = (*p)->body_as_ConnectResponse()->client_key();
            if (key == nullptr) return false;
            const auto agreed = protocol::server_session_keys(keys, {key->data(), key->size()});
            if (!agreed) return false;
            seal.emplace(*agreed);
            return true;
        }
        return false;
    }
    // `clear` sealed as the server sends it (as it is before the keys).
    std::vector<std::uint8_t> sealed(std::span<const std::uint8_t> clear) {
        if (!seal) return {clear.begin(), clear.end()};
        protocol::DatagramBuffer out{};
        const auto bytes = seal->seal(clear, out);
        if (bytes.empty()) return {clear.begin(), clear.end()};
        return {bytes.begin(), bytes.end()};
    }
};

}  // namespace carom::fuzz
