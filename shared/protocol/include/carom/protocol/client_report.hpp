#pragma once
// ClientUpdate: what a client tells the server every tick (schemas/PROTOCOL.md,
// "ClientUpdate"): its newest inputs, each sent until the server shows it
// applied it (up to Accepted.input_redundancy), and the newest tick whose
// state it holds exactly, which the server's next updates start from.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "carom/game/input.hpp"
#include "carom/result.hpp"
#include "net_generated.h"

namespace carom::protocol {

struct ClientReport {
    // The newest server tick whose state the client holds; none: it holds
    // none, and asks for a FullState.
    std::optional<std::uint64_t> ack;
    // The sequence of the newest input; the inputs are those of sequences
    // sequence - size + 1 .. sequence, oldest first. No inputs: sequence 0.
    std::uint32_t sequence = 0;
    std::vector<game::Input> inputs;
    friend bool operator==(const ClientReport&, const ClientReport&) = default;
};

// Writes `report` as a ClientUpdate into `builder` (cleared first) and
// returns the datagram. At most kMaxInputRedundancy inputs.
std::span<const std::uint8_t> encode_client_report(flatbuffers::FlatBufferBuilder& builder,
                                                   const ClientReport& report);

// Reads a verified ClientUpdate. Its 16-bit sequence is read back nearest
// `last_sequence` (the newest the server applied for the client), its ack
// nearest and not after `tick` (the server's current tick). The error names
// what does not fit (a stream cut short or with bits left over, more inputs
// than kMaxInputRedundancy, an ack after `tick`).
Result<ClientReport> decode_client_report(const net::ClientUpdate& update, std::uint64_t tick,
                                          std::uint32_t last_sequence);

}  // namespace carom::protocol
