#include "carom/replay/writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "chunk_codec.hpp"
#include "file_format.hpp"

namespace carom::replay {

using detail::kMaxSlots;

struct ReplayWriter::Pending : detail::TickBatch {
    bool empty() const { return hashes.empty() && roster.empty(); }
};

namespace {

std::function<int(const std::filesystem::path&)>& write_fault() {
    static std::function<int(const std::filesystem::path&)> fault;
    return fault;
}

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
    throw WriteError(path.string() + ": " + what + ": " + std::strerror(errno));
}

// The injected fault, if any, as the errno the OS would have set.
bool injected_fault(const std::filesystem::path& path) {
    if (!write_fault()) return false;
    const int error = write_fault()(path);
    if (error == 0) return false;
    errno = error;
    return true;
}

template <class Table>
std::vector<std::uint8_t> finish_chunk(flatbuffers::FlatBufferBuilder& b,
                                       flatbuffers::Offset<Table> body) {
    const auto chunk =
        schema::CreateChunk(b, schema::ChunkBodyTraits<Table>::enum_value, body.Union());
    b.Finish(chunk, schema::ChunkIdentifier());
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

}  // namespace

void set_write_fault(std::function<int(const std::filesystem::path&)> fault) {
    write_fault() = std::move(fault);
}

ReplayWriter::ReplayWriter(const std::filesystem::path& path, const Header& header)
    : path_(path), ticks_per_chunk_(header.tick_rate), pending_(std::make_unique<Pending>()) {
    if (2 * header.map.team_size > kMaxSlots)
        throw std::invalid_argument("replay: at most 32 player slots");
    held_.assign(2 * std::size_t{header.map.team_size}, game::Input{});
    // "x": O_CREAT | O_EXCL, so another writer's file is never truncated.
    file_ = std::fopen(path.c_str(), "wbx");
    if (!file_) fail(path, "cannot create the replay");
    try {
        std::array<std::uint8_t, detail::kPreambleSize> preamble{};
        std::memcpy(preamble.data(), detail::kMagic.data(), detail::kMagic.size());
        detail::put_u32(preamble.data() + 8, kFormatVersion);
        if (injected_fault(path) ||
            std::fwrite(preamble.data(), 1, preamble.size(), file_) != preamble.size())
            fail(path, "cannot write the replay");
        bytes_written_ += preamble.size();
        flatbuffers::FlatBufferBuilder b;
        write_chunk(finish_chunk(b, detail::encode(b, header)));
    } catch (...) {
        std::fclose(file_);  // the destructor does not run for a constructor that throws
        file_ = nullptr;
        throw;
    }
}

ReplayWriter::~ReplayWriter() {
    if (!file_) return;
    try {
        flush();
    } catch (const std::exception&) {
        // Nothing more can be saved; the file reads up to its last good chunk.
    }
    std::fclose(file_);
}

void ReplayWriter::add_roster(const RosterChange& change) {
    if (change.slot >= held_.size())
        throw std::invalid_argument("replay: roster slot out of range");
    if (pending_->empty()) pending_->first_tick = change.tick;
    held_[change.slot] = game::Input{};
    pending_->roster.push_back(change);
}

void ReplayWriter::add_tick(std::uint64_t tick, std::span<const game::Input> applied,
                            std::uint64_t hash, std::span<const game::MatchEvent> events) {
    Pending& p = *pending_;
    if (p.empty()) p.first_tick = tick;
    if (tick != p.first_tick + p.hashes.size())
        throw std::invalid_argument("replay: ticks must be added in order without gaps");
    if (applied.size() != held_.size()) throw std::invalid_argument("replay: one input per slot");
    for (std::uint32_t slot = 0; slot < held_.size(); ++slot) {
        if (applied[slot] == held_[slot]) continue;
        p.inputs.push_back({tick, slot, applied[slot]});
        held_[slot] = applied[slot];
    }
    p.hashes.push_back(hash);
    p.events.insert(p.events.end(), events.begin(), events.end());
    if (p.hashes.size() >= ticks_per_chunk_) flush();
}

void ReplayWriter::add_keyframe(const Keyframe& keyframe) {
    flush();
    flatbuffers::FlatBufferBuilder b;
    write_chunk(finish_chunk(b, detail::encode(b, keyframe)));
}

void ReplayWriter::flush() {
    if (!file_) return;
    Pending& p = *pending_;
    if (!p.empty()) {
        flatbuffers::FlatBufferBuilder b;
        write_chunk(finish_chunk(b, detail::encode(b, p)));
        p.first_tick = p.first_tick + p.hashes.size();
        p.inputs.clear();
        p.hashes.clear();
        p.roster.clear();
        p.events.clear();
    }
    if (std::fflush(file_) != 0) fail(path_, "cannot flush the replay");
}

void ReplayWriter::finish(const Footer& footer) {
    flush();
    flatbuffers::FlatBufferBuilder b;
    write_chunk(finish_chunk(b, detail::encode(b, footer)));
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) fail(path_, "cannot close the replay");
}

void ReplayWriter::write_chunk(std::span<const std::uint8_t> payload) {
    if (!file_) throw std::logic_error("replay: write after finish");
    std::array<std::uint8_t, detail::kChunkHeaderSize> head{};
    detail::put_u32(head.data(), static_cast<std::uint32_t>(payload.size()));
    detail::put_u64(head.data() + 4, detail::checksum(payload));
    // One buffered write per chunk, then a flush: a kill leaves whole chunks or a torn last one.
    if (injected_fault(path_)) fail(path_, "cannot write the replay");
    if (std::fwrite(head.data(), 1, head.size(), file_) != head.size() ||
        std::fwrite(payload.data(), 1, payload.size(), file_) != payload.size())
        fail(path_, "cannot write the replay");
    if (std::fflush(file_) != 0) fail(path_, "cannot flush the replay");
    bytes_written_ += head.size() + payload.size();
}

}  // namespace carom::replay
