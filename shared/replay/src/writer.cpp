#include "carom/replay/writer.hpp"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#endif

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

#include "chunk_codec.hpp"
#include "file_format.hpp"

namespace carom::replay {

using detail::kMaxSlots;

namespace {

// A new file, never one that exists: fopen's "x" (O_CREAT | O_EXCL), so
// another writer's file is never truncated. Windows' C runtime (msvcrt)
// ignores "x", so there the file is created exclusively by _wopen.
std::FILE* create_new_file(const std::filesystem::path& path) {
#ifdef _WIN32
    const int fd =
        _wopen(path.c_str(), _O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY, _S_IREAD | _S_IWRITE);
    if (fd < 0) return nullptr;
    std::FILE* file = _fdopen(fd, "wb");
    if (!file) _close(fd);
    return file;
#else
    return std::fopen(path.c_str(), "wbx");
#endif
}

}  // namespace

struct ReplayWriter::Pending : detail::TickBatch {
    bool empty() const { return hashes.empty() && roster.empty(); }
};

// The open file and what its jobs found: shared by the writer and the jobs
// still to run, so the file is closed by whichever lets go of it last.
struct ReplayWriter::File {
    explicit File(std::filesystem::path p) : path(std::move(p)) {}
    ~File() {
        if (handle) std::fclose(handle);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;

    Status write_chunk(std::span<const std::uint8_t> payload);
    Status flush();
    // Keeps the first error: the file reads up to its last good chunk.
    void note(const Status& done) {
        if (done || failed) return;
        error = done.error().message;
        failed = true;
    }

    std::filesystem::path path;
    std::FILE* handle = nullptr;
    std::atomic<std::uint64_t> bytes_written{0};
    // The first write error: `error` is set before `failed`, and read after.
    std::string error;
    std::atomic<bool> failed{false};
};

namespace {

std::mutex fault_mutex;
std::function<int(const std::filesystem::path&)>& write_fault() {
    static std::function<int(const std::filesystem::path&)> fault;
    return fault;
}

// The OS's refusal (errno), naming the file.
Error refused(const std::filesystem::path& path, const char* what) {
    return fail(path.string() + ": " + what + ": " + std::strerror(errno));
}

// The injected fault, if any, as the errno the OS would have set.
bool injected_fault(const std::filesystem::path& path) {
    std::function<int(const std::filesystem::path&)> fault;
    {
        const std::lock_guard lock(fault_mutex);
        fault = write_fault();
    }
    if (!fault) return false;
    const int error = fault(path);
    if (error == 0) return false;
    errno = error;
    return true;
}

// A FlatBuffers `Chunk`'s bytes, built where the writer is called (cheap).
template <class Table>
std::vector<std::uint8_t> chunk_table(flatbuffers::FlatBufferBuilder& b,
                                      flatbuffers::Offset<Table> body) {
    const auto chunk =
        schema::CreateChunk(b, schema::ChunkBodyTraits<Table>::enum_value, body.Union());
    b.Finish(chunk, schema::ChunkIdentifier());
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

// The chunk as the file's format holds it: as it is in format 1; from
// format 2 behind its encoding byte, compressed when `compressed` (the
// costly part, done where the file's work runs).
std::vector<std::uint8_t> chunk_payload(std::span<const std::uint8_t> table,
                                        std::uint32_t format_version, bool compressed) {
    if (format_version < 2) return {table.begin(), table.end()};
    if (!compressed) {
        std::vector<std::uint8_t> out{
            static_cast<std::uint8_t>(detail::ChunkEncoding::flatbuffers)};
        out.insert(out.end(), table.begin(), table.end());
        return out;
    }
    std::vector<std::uint8_t> out{static_cast<std::uint8_t>(detail::ChunkEncoding::zstd)};
    const std::vector<std::uint8_t> frame = detail::compress(table);
    out.insert(out.end(), frame.begin(), frame.end());
    return out;
}

}  // namespace

void set_write_fault(std::function<int(const std::filesystem::path&)> fault) {
    const std::lock_guard lock(fault_mutex);
    write_fault() = std::move(fault);
}

Status ReplayWriter::File::write_chunk(std::span<const std::uint8_t> payload) {
    if (!handle) throw std::logic_error("replay: write after finish");
    std::array<std::uint8_t, detail::kChunkHeaderSize> head{};
    detail::put_u32(head.data(), static_cast<std::uint32_t>(payload.size()));
    detail::put_u64(head.data() + 4, detail::checksum(payload));
    // One buffered write per chunk, then a flush: a kill leaves whole chunks or a torn last one.
    if (injected_fault(path)) return refused(path, "cannot write the replay");
    if (std::fwrite(head.data(), 1, head.size(), handle) != head.size() ||
        std::fwrite(payload.data(), 1, payload.size(), handle) != payload.size())
        return refused(path, "cannot write the replay");
    if (std::fflush(handle) != 0) return refused(path, "cannot flush the replay");
    bytes_written += head.size() + payload.size();
    return {};
}

Status ReplayWriter::File::flush() {
    if (handle && std::fflush(handle) != 0) return refused(path, "cannot flush the replay");
    return {};
}

ReplayWriter::ReplayWriter(const std::filesystem::path& path, const Header& header, FileWork work)
    : path_(path),
      file_(std::make_shared<File>(path)),
      work_(std::move(work)),
      format_version_(header.format_version),
      ticks_per_chunk_(header.tick_rate),
      start_tick_(header.start_tick),
      pending_(std::make_unique<Pending>()) {
    if (2 * header.map.team_size > kMaxSlots)
        throw std::invalid_argument("replay: at most 32 player slots");
    if (format_version_ == 0 || format_version_ > kFormatVersion)
        throw std::invalid_argument("replay: this build writes formats 1 to " +
                                    std::to_string(kFormatVersion));
    if (format_version_ < 3 && (header.start_tick != 0 || header.parent))
        throw std::invalid_argument("replay: a start tick or a parent needs format 3");
    if (header.start_tick > kMaxStartTick)
        throw std::invalid_argument("replay: start tick out of range");
    held_.assign(2 * std::size_t{header.map.team_size}, game::Input{});
    flatbuffers::FlatBufferBuilder b;
    // An error is kept as write_error().
    static_cast<void>(run([table = chunk_table(b, detail::encode(b, header)),
                           format = format_version_](File& file) -> Status {
        // Creating a file can take a filesystem a millisecond: it is the file work's too.
        file.handle = create_new_file(file.path);
        if (!file.handle) return refused(file.path, "cannot create the replay");
        std::array<std::uint8_t, detail::kPreambleSize> preamble{};
        std::memcpy(preamble.data(), detail::kMagic.data(), detail::kMagic.size());
        detail::put_u32(preamble.data() + 8, format);
        if (injected_fault(file.path) ||
            std::fwrite(preamble.data(), 1, preamble.size(), file.handle) != preamble.size())
            return refused(file.path, "cannot write the replay");
        file.bytes_written += preamble.size();
        return file.write_chunk(chunk_payload(table, format, true));
    }));
}

ReplayWriter::~ReplayWriter() {
    // On an error nothing more can be saved: the file reads up to its last
    // good chunk. It closes when its last job has run.
    if (!finished_) static_cast<void>(flush());
}

std::uint64_t ReplayWriter::bytes_written() const {
    return file_->bytes_written;
}

Status ReplayWriter::write_error() const {
    if (!file_->failed) return {};
    return fail(file_->error);
}

Status ReplayWriter::run(std::function<Status(File&)> job) {
    if (finished_) throw std::logic_error("replay: write after finish");
    if (Status before = write_error(); !before) return before;
    if (!work_) {
        const Status done = job(*file_);
        file_->note(done);
        return done;
    }
    work_([file = file_, job = std::move(job)] {
        if (!file->failed) file->note(job(*file));
    });
    return {};
}

void ReplayWriter::add_roster(const game::RosterChange& change) {
    if (change.slot >= held_.size())
        throw std::invalid_argument("replay: roster slot out of range");
    if (pending_->empty()) pending_->first_tick = change.tick;
    held_[change.slot] = game::Input{};
    pending_->roster.push_back(change);
}

Status ReplayWriter::add_tick(std::uint64_t tick, std::span<const game::Input> applied,
                              std::uint64_t hash, std::span<const game::MatchEvent> events) {
    if (!started_ && start_tick_ != 0)
        throw std::logic_error("replay: a match from a state starts with its keyframe");
    started_ = true;
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
    if (p.hashes.size() >= ticks_per_chunk_) return flush();
    return {};
}

Status ReplayWriter::add_keyframe(const Keyframe& keyframe) {
    if (!started_ && start_tick_ != 0) {
        // The starting state: each slot holds its last input on, as a
        // re-simulation from this keyframe does.
        if (keyframe.state.tick != start_tick_)
            throw std::logic_error("replay: the first keyframe is of the start tick");
        if (keyframe.state.players.size() != held_.size())
            throw std::invalid_argument("replay: one player per slot in the keyframe");
        for (std::size_t slot = 0; slot < held_.size(); ++slot)
            held_[slot] = keyframe.state.players[slot].last_input;
        started_ = true;
    }
    if (Status flushed = flush(); !flushed) return flushed;
    flatbuffers::FlatBufferBuilder b;
    return run([table = chunk_table(b, detail::encode(b, keyframe)), format = format_version_](
                   File& file) { return file.write_chunk(chunk_payload(table, format, true)); });
}

Status ReplayWriter::flush() {
    if (finished_) return {};
    Pending& p = *pending_;
    if (p.empty()) return run([](File& file) { return file.flush(); });
    std::vector<std::uint8_t> payload;
    if (format_version_ < 2) {
        flatbuffers::FlatBufferBuilder b;
        payload = chunk_payload(chunk_table(b, detail::encode(b, p)), format_version_, false);
    } else {
        payload = {static_cast<std::uint8_t>(detail::ChunkEncoding::packed_ticks)};
        const std::vector<std::uint8_t> packed = detail::encode_packed(p);
        payload.insert(payload.end(), packed.begin(), packed.end());
    }
    p.first_tick = p.first_tick + p.hashes.size();
    p.inputs.clear();
    p.hashes.clear();
    p.roster.clear();
    p.events.clear();
    return run([payload = std::move(payload)](File& file) { return file.write_chunk(payload); });
}

Status ReplayWriter::finish(const Footer& footer) {
    if (Status flushed = flush(); !flushed) return flushed;
    flatbuffers::FlatBufferBuilder b;
    const Status written = run([table = chunk_table(b, detail::encode(b, footer)),
                                format = format_version_](File& file) -> Status {
        if (Status chunk = file.write_chunk(chunk_payload(table, format, false)); !chunk)
            return chunk;
        const int closed = std::fclose(file.handle);
        file.handle = nullptr;
        if (closed != 0) return refused(file.path, "cannot close the replay");
        return {};
    });
    if (!written) return written;
    finished_ = true;
    return {};
}

void ReplayWriter::when_closed(WriteDone done) {
    if (!finished_) throw std::logic_error("replay: when_closed before finish");
    // Told whether the file is whole, even when a job before failed.
    auto tell = [file = file_, done = std::move(done)] {
        done(file->failed ? Status(fail(file->error)) : Status());
    };
    if (work_) {
        work_(std::move(tell));
    } else {
        tell();
    }
}

}  // namespace carom::replay
