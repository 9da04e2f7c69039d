#include "replay/size.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "carom/replay/file_bytes.hpp"
#include "carom/replay/resimulation.hpp"
#include "replay_generated.h"

namespace carom::bench {
namespace {

// The file layout (schemas/PROTOCOL.md): "CAROMRPL" and a u32 version, then
// chunks of a u32 size, a u64 checksum and the payload.
constexpr std::size_t kPreambleBytes = 12;
constexpr std::size_t kChunkHeaderBytes = 12;

enum class Part : std::uint8_t {
    framing,
    inputs,
    roster,
    events,
    hashes,
    keyframes,
    header,
    footer
};

std::uint32_t read_u32_le(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
}

// One Part per byte of the file, painted from what each chunk holds. Bytes
// nothing claims stay framing; a vtable shared between tables is claimed by
// the first.
class Painter {
  public:
    explicit Painter(std::span<const std::uint8_t> file) : file_(file), parts_(file.size()) {}

    void paint(const void* start, std::size_t length, Part part) {
        const std::size_t from = offset_of(start);
        if (from + length > parts_.size()) throw std::runtime_error("replay: range past the file");
        for (std::size_t i = from; i < from + length; ++i)
            parts_[i] = part;
    }
    // A vector's length prefix and elements.
    template <class T>
    void paint_vector(const flatbuffers::Vector<T>* v, std::size_t element_bytes, Part part) {
        if (v) paint(v, sizeof(flatbuffers::uoffset_t) + v->size() * element_bytes, part);
    }
    // A table's inline fields and its vtable (both sizes are in the vtable).
    void paint_table(const flatbuffers::Table* t, Part part) {
        const std::uint8_t* vtable = t->GetVTable();
        paint(t, flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + 2), part);
        const std::size_t from = offset_of(vtable);
        const std::size_t length = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable);
        if (from + length > parts_.size()) throw std::runtime_error("replay: vtable past the file");
        for (std::size_t i = from; i < from + length; ++i) {
            if (parts_[i] == Part::framing) parts_[i] = part;
        }
    }
    void paint_string(const flatbuffers::String* s, Part part) {
        if (s) paint(s, sizeof(flatbuffers::uoffset_t) + s->size() + 1, part);  // with its NUL
    }
    // A vector of tables: the offsets, then each table.
    template <class T>
    void paint_tables(const flatbuffers::Vector<flatbuffers::Offset<T>>* v, Part part) {
        if (!v) return;
        paint_vector(v, sizeof(flatbuffers::uoffset_t), part);
        // Generated tables inherit flatbuffers::Table privately, at offset 0.
        for (const T* t : *v)
            paint_table(reinterpret_cast<const flatbuffers::Table*>(t), part);
    }

    ByteBreakdown count() const {
        ByteBreakdown b;
        for (const Part p : parts_) {
            switch (p) {
                case Part::framing:
                    ++b.framing;
                    break;
                case Part::inputs:
                    ++b.inputs;
                    break;
                case Part::roster:
                    ++b.roster;
                    break;
                case Part::events:
                    ++b.events;
                    break;
                case Part::hashes:
                    ++b.hashes;
                    break;
                case Part::keyframes:
                    ++b.keyframes;
                    break;
                case Part::header:
                    ++b.header;
                    break;
                case Part::footer:
                    ++b.footer;
                    break;
            }
        }
        return b;
    }

  private:
    std::size_t offset_of(const void* p) const {
        const auto* byte = static_cast<const std::uint8_t*>(p);
        if (byte < file_.data() || byte >= file_.data() + file_.size())
            throw std::runtime_error("replay: pointer outside the file");
        return static_cast<std::size_t>(byte - file_.data());
    }

    std::span<const std::uint8_t> file_;
    std::vector<Part> parts_;
};

void paint_batch(Painter& painter, const schema::TickBatch& batch) {
    painter.paint_vector(batch.inputs(), 1, Part::inputs);
    painter.paint_vector(batch.hashes(), sizeof(std::uint64_t), Part::hashes);
    painter.paint_tables(batch.roster(), Part::roster);
    if (batch.roster()) {
        for (const schema::RosterChange* c : *batch.roster())
            painter.paint_string(c->name(), Part::roster);
    }
    painter.paint_tables(batch.events(), Part::events);
}

}  // namespace

ByteBreakdown measure_bytes(std::span<const std::uint8_t> file) {
    if (file.size() < kPreambleBytes) throw std::runtime_error("replay: shorter than its preamble");
    if (read_u32_le(file.data() + 8) >= 2) {
        // Format 2 packs its batches: the library counts them.
        const auto counted = replay::count_file_bytes(file);
        if (!counted) throw std::runtime_error("replay: " + counted.error().message);
        const replay::FileBytes& c = *counted;
        return {c.inputs, c.roster, c.events, c.hashes, c.keyframes, c.header, c.footer, c.framing};
    }
    Painter painter(file);
    for (std::size_t at = kPreambleBytes; at < file.size();) {
        if (file.size() - at < kChunkHeaderBytes)
            throw std::runtime_error("replay: cut chunk header");
        const std::uint32_t size = read_u32_le(file.data() + at);
        const std::size_t payload_at = at + kChunkHeaderBytes;
        if (size > file.size() - payload_at) throw std::runtime_error("replay: cut chunk");
        const std::uint8_t* payload = file.data() + payload_at;
        flatbuffers::Verifier verifier(payload, size);
        if (!schema::VerifyChunkBuffer(verifier))
            throw std::runtime_error("replay: chunk at byte " + std::to_string(at) +
                                     " fails the FlatBuffers verifier");
        const schema::Chunk* chunk = schema::GetChunk(payload);
        if (const auto* batch = chunk->body_as_TickBatch()) {
            paint_batch(painter, *batch);
        } else if (chunk->body_as_Keyframe()) {
            painter.paint(payload, size, Part::keyframes);
        } else if (chunk->body_as_Header()) {
            painter.paint(payload, size, Part::header);
        } else if (chunk->body_as_Footer()) {
            painter.paint(payload, size, Part::footer);
        }
        at = payload_at + size;
    }
    return painter.count();
}

std::uint64_t player_ticks(const replay::Replay& replay) {
    std::vector<bool> active(2 * std::size_t{replay.header.map.team_size}, false);
    std::uint64_t count = 0;
    for (const game::RosterEntry& p : replay.header.players) {
        if (!active.at(p.slot)) ++count;
        active.at(p.slot) = true;
    }
    std::uint64_t sum = 0;
    std::size_t next = 0;
    for (std::uint64_t tick = 1; tick <= replay.last_tick(); ++tick) {
        for (; next < replay.roster.size() && replay.roster[next].tick <= tick; ++next) {
            const game::RosterChange& c = replay.roster[next];
            if (active.at(c.slot) != c.join) count = c.join ? count + 1 : count - 1;
            active.at(c.slot) = c.join;
        }
        sum += count;
    }
    return sum;
}

std::uint64_t player_ticks_resimulated(const replay::Replay& replay) {
    replay::Resimulation sim(replay);
    std::uint64_t sum = 0;
    while (sim.tick() < replay.last_tick()) {
        if (const auto stepped = sim.step(); !stepped)
            throw std::runtime_error("size bench: " + stepped.error().message);
        // Leaves are applied before the step: who is active now played this tick.
        for (game::Slot slot = 0; slot < sim.match().slot_count(); ++slot) {
            if (sim.match().active(slot)) ++sum;
        }
    }
    return sum;
}

}  // namespace carom::bench
