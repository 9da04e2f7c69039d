// ClientUpdate: inputs newest first as runs, and the acknowledgement
// (schemas/PROTOCOL.md, "ClientUpdate").
#include "carom/protocol/client_report.hpp"

#include <algorithm>
#include <array>

#include "bit_stream.hpp"
#include "carom/protocol/packet.hpp"
#include "input_delta_code.hpp"

namespace carom::protocol {
namespace {
constexpr std::size_t kInlineBytes = 4;  // ClientHead.stream
}  // namespace

std::span<const std::uint8_t> encode_client_report(flatbuffers::FlatBufferBuilder& b,
                                                   const ClientReport& report) {
    b.Clear();
    detail::BitWriter w;
    w.bit(report.ack.has_value());
    const std::size_t m = report.inputs.size();
    w.code(m);
    // Newest first, as runs of equal inputs: a run's input (the first as is,
    // the others as a change from the run before), then whether another run
    // follows and, if so, this one's length.
    std::size_t i = m;
    while (i > 0) {
        const game::Input input = report.inputs[i - 1];
        if (i == m) {
            w.bits(input.bits(), 6);
        } else {
            detail::write_delta(w, InputDelta::between(report.inputs[i], input));
        }
        std::size_t end = i - 1;
        while (end > 0 && report.inputs[end - 1] == input)
            --end;
        const std::size_t length = i - end;
        if (length == i) {
            if (i > 1) w.bit(false);  // one input left is a run of its own: nothing to say
            break;
        }
        w.bit(true);
        w.code(length - 1);
        i = end;
    }
    w.finish();
    const std::span<const std::uint8_t> stream = w.bytes();

    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> more;
    if (stream.size() > kInlineBytes)
        more = b.CreateVector(stream.data() + kInlineBytes, stream.size() - kInlineBytes);
    std::array<std::uint8_t, kInlineBytes> head_stream{};
    std::copy_n(stream.begin(), std::min(stream.size(), kInlineBytes), head_stream.begin());
    const net::ClientHead head(static_cast<std::uint16_t>(report.sequence),
                               static_cast<std::uint16_t>(report.ack.value_or(0)),
                               flatbuffers::span<const std::uint8_t, kInlineBytes>(head_stream));
    net::ClientUpdateBuilder update(b);
    update.add_head(&head);
    if (!more.IsNull()) update.add_more(more);
    b.Finish(update.Finish(), kClientUpdateIdentifier);
    return {b.GetBufferPointer(), b.GetSize()};
}

Result<ClientReport> decode_client_report(const net::ClientUpdate& u, std::uint64_t tick,
                                          std::uint32_t last_sequence) {
    const net::ClientHead& head = *u.head();
    const std::span<const std::uint8_t> more =
        u.more() != nullptr ? std::span<const std::uint8_t>(u.more()->data(), u.more()->size())
                            : std::span<const std::uint8_t>{};
    detail::BitReader r(std::span<const std::uint8_t>(head.stream()->Data(), kInlineBytes), more);
    ClientReport report;
    if (r.bit()) {
        const std::uint64_t ack = extend16(head.ack(), tick);
        if (ack > tick) return fail("client update: ack after the server's tick");
        report.ack = ack;
    }
    const std::uint64_t m = r.code();
    if (m > kMaxInputRedundancy)
        return fail("client update: " + std::to_string(m) + " inputs, more than " +
                    std::to_string(kMaxInputRedundancy));
    report.inputs.resize(static_cast<std::size_t>(m));
    std::size_t i = report.inputs.size();
    game::Input input;
    while (i > 0 && r.error() == nullptr) {
        if (i == report.inputs.size()) {
            input = game::Input::from_bits(static_cast<std::uint8_t>(r.bits(6)));
        } else {
            input = detail::read_delta(r).applied_to(input);
        }
        std::size_t length = i;
        if (i > 1 && r.bit()) {
            const std::uint64_t l = r.code() + 1;
            if (l >= i) return fail("client update: a run longer than the inputs");
            length = static_cast<std::size_t>(l);
        }
        for (std::size_t k = 0; k < length; ++k)
            report.inputs[i - 1 - k] = input;
        i -= length;
    }
    if (r.error() != nullptr) return fail(std::string("client update: ") + r.error());
    if (!r.rest_is_zero()) return fail("client update: stream has bits left over");
    if (!more.empty() && (r.position() + 7) / 8 != kInlineBytes + more.size())
        return fail("client update: stream has bytes left over");
    if (m > 0)
        report.sequence = static_cast<std::uint32_t>(extend16(head.sequence(), last_sequence));
    return report;
}

}  // namespace carom::protocol
