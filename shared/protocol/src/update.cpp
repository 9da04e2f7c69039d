// ServerUpdate: the stream of input changes and its rare fields
// (schemas/PROTOCOL.md, "ServerUpdate").
#include "carom/protocol/update.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "bit_stream.hpp"
#include "carom/protocol/packet.hpp"
#include "input_delta_code.hpp"

namespace carom::protocol {
namespace {

constexpr std::size_t kInlineBytes = 4;  // UpdateHead.stream

int slot_bits(std::uint32_t slots) {
    return slots <= 1 ? 0 : static_cast<int>(std::bit_width(slots - 1));
}

}  // namespace

std::span<const std::uint8_t> encode_update(flatbuffers::FlatBufferBuilder& b, const Update& u,
                                            const UpdateContext& context) {
    b.Clear();
    detail::BitWriter w;
    const std::uint64_t span = u.tick - u.baseline;
    w.code(span - 1);
    if (context.player)
        w.signed_code(
            static_cast<std::int32_t>(u.sequence_advance - static_cast<std::uint32_t>(span)));
    w.code(u.inputs.size());
    const int width = slot_bits(context.slots);
    std::uint64_t previous = u.baseline + 1;
    for (const InputChange& c : u.inputs) {
        w.code(c.tick - previous);
        previous = c.tick;
        if (width > 0) w.bits(c.slot, width);
        detail::write_delta(w, c.delta);
    }
    w.finish();
    if (w.overflowed()) return {};  // longer than any datagram
    const std::span<const std::uint8_t> stream = w.bytes();

    flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> more;
    if (stream.size() > kInlineBytes)
        more = b.CreateVector(stream.data() + kInlineBytes, stream.size() - kInlineBytes);
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<net::RosterChange>>> roster;
    if (!u.roster.empty()) {
        std::vector<flatbuffers::Offset<net::RosterChange>> changes;
        for (const game::RosterChange& r : u.roster)
            changes.push_back(net::CreateRosterChange(b, r.tick, static_cast<std::uint16_t>(r.slot),
                                                      r.join, r.join ? b.CreateString(r.name) : 0,
                                                      r.bot));
        roster = b.CreateVector(changes);
    }
    flatbuffers::Offset<net::MatchStart> start;
    if (u.match_start) {
        std::vector<flatbuffers::Offset<net::StartSlot>> slots;
        for (const game::RosterEntry& s : u.match_start->slots)
            slots.push_back(net::CreateStartSlot(b, static_cast<std::uint16_t>(s.slot),
                                                 b.CreateString(s.name), s.bot));
        start = net::CreateMatchStart(b, u.match_start->tick, u.match_start->seed,
                                      b.CreateVector(slots));
    }
    std::array<std::uint8_t, kInlineBytes> head_stream{};
    std::copy_n(stream.begin(), std::min(stream.size(), kInlineBytes), head_stream.begin());
    const net::UpdateHead head(static_cast<std::uint16_t>(u.tick), u.state,
                               flatbuffers::span<const std::uint8_t, kInlineBytes>(head_stream));
    net::ServerUpdateBuilder update(b);
    update.add_head(&head);
    if (!more.IsNull()) update.add_more(more);
    if (!roster.IsNull()) update.add_roster(roster);
    if (!start.IsNull()) update.add_match_start(start);
    if (u.halted_since != 0) update.add_halted_since(u.halted_since);
    if (u.server_tick_ms) update.add_server_tick_ms(*u.server_tick_ms);
    b.Finish(update.Finish(), kServerUpdateIdentifier);
    return {b.GetBufferPointer(), b.GetSize()};
}

Result<Update> decode_update(const net::ServerUpdate& s, std::uint64_t tick,
                             const UpdateContext& context) {
    const net::UpdateHead& head = *s.head();
    const std::span<const std::uint8_t> inline_bytes(head.stream()->Data(), kInlineBytes);
    const std::span<const std::uint8_t> more =
        s.more() != nullptr ? std::span<const std::uint8_t>(s.more()->data(), s.more()->size())
                            : std::span<const std::uint8_t>{};
    detail::BitReader r(inline_bytes, more);
    Update u;
    u.tick = tick;
    u.state = head.state();
    const std::uint64_t span = r.code() + 1;
    if (r.error() == nullptr && (span > kMaxUpdateTicks || span > tick))
        return fail("update: baseline " + std::to_string(span) + " ticks before tick " +
                    std::to_string(tick) + " is out of range");
    u.baseline = tick - span;
    if (context.player)
        u.sequence_advance =
            static_cast<std::uint32_t>(span) + static_cast<std::uint32_t>(r.signed_code());
    const std::uint64_t count = r.code();
    if (r.error() == nullptr && count > span * context.slots)
        return fail("update: " + std::to_string(count) + " input changes in " +
                    std::to_string(span) + " ticks of " + std::to_string(context.slots) + " slots");
    const int width = slot_bits(context.slots);
    u.inputs.reserve(static_cast<std::size_t>(count));
    std::uint64_t at = u.baseline + 1;
    for (std::uint64_t i = 0; i < count && r.error() == nullptr; ++i) {
        InputChange c;
        const std::uint64_t step = r.code();
        c.slot = width > 0 ? r.bits(width) : 0;
        c.delta = detail::read_delta(r);
        if (r.error() != nullptr) break;
        if (step > u.tick - at) return fail("update: an input change after the update's tick");
        at += step;
        c.tick = at;
        if (c.slot >= context.slots)
            return fail("update: slot " + std::to_string(c.slot) + " out of range");
        if (!u.inputs.empty() && u.inputs.back().tick == c.tick && u.inputs.back().slot >= c.slot)
            return fail("update: input changes out of slot order");
        u.inputs.push_back(c);
    }
    if (r.error() != nullptr) return fail(std::string("update: ") + r.error());
    if (!r.rest_is_zero()) return fail("update: stream has bits left over");
    // The writer stores no byte it does not need: `more` ends where the stream does.
    if (!more.empty() && (r.position() + 7) / 8 != kInlineBytes + more.size())
        return fail("update: stream has bytes left over");

    if (const auto* roster = s.roster()) {
        std::uint64_t previous = u.baseline + 1;
        for (const net::RosterChange* c : *roster) {
            game::RosterChange rc;
            rc.tick = c->tick();
            rc.slot = c->slot();
            rc.join = c->join();
            rc.bot = c->bot();
            if (c->name() != nullptr) rc.name = c->name()->str();
            if (rc.tick < previous || rc.tick > u.tick)
                return fail("update: roster change of tick " + std::to_string(rc.tick) +
                            " outside the update or out of order");
            if (rc.slot >= context.slots)
                return fail("update: roster slot " + std::to_string(rc.slot) + " out of range");
            if (rc.name.size() > kMaxNameBytes) return fail("update: roster name too long");
            previous = rc.tick;
            u.roster.push_back(std::move(rc));
        }
    }
    if (const auto* start = s.match_start()) {
        MatchStart m;
        m.tick = start->tick();
        m.seed = start->seed();
        if (m.tick <= u.baseline || m.tick > u.tick)
            return fail("update: match start of tick " + std::to_string(m.tick) +
                        " outside the update");
        if (const auto* slots = start->slots()) {
            for (const net::StartSlot* p : *slots) {
                game::RosterEntry ss{
                    p->slot(), p->name() != nullptr ? p->name()->str() : std::string(), p->bot()};
                if (ss.slot >= context.slots ||
                    (!m.slots.empty() && m.slots.back().slot >= ss.slot))
                    return fail("update: match start slots out of range or order");
                if (ss.name.size() > kMaxNameBytes) return fail("update: start name too long");
                m.slots.push_back(std::move(ss));
            }
        }
        u.match_start = std::move(m);
    }
    u.halted_since = s.halted_since();
    if (const auto ms = s.server_tick_ms(); ms.has_value()) u.server_tick_ms = *ms;
    return u;
}

}  // namespace carom::protocol
