#include "carom/replay/reader.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

#include "chunk_codec.hpp"
#include "file_format.hpp"

namespace carom::replay {
namespace {

// One chunk's content: a FlatBuffers table, or (format 2 on) a packed tick
// batch; neither at the clean end of the file.
struct ChunkContent {
    const schema::Chunk* table = nullptr;
    std::span<const std::uint8_t> packed_ticks;
    bool end() const { return table == nullptr && packed_ticks.empty(); }
};

struct ChunkReader {
    std::span<const std::uint8_t> bytes;
    std::uint32_t format_version = 0;
    std::size_t offset = detail::kPreambleSize;
    std::vector<std::uint64_t> aligned;  // the current chunk's table; valid until next()

    // The next checked chunk, or why there is none (the chunk at `offset`,
    // which stays there). What it points to is valid until the next call.
    Result<ChunkContent> next() {
        const std::size_t left = bytes.size() - offset;
        if (left == 0) return ChunkContent{};
        if (left < detail::kChunkHeaderSize)
            return fail("truncated: " + std::to_string(left) +
                        " byte(s) of a chunk header, the file was cut");
        const std::uint32_t size = detail::get_u32(bytes.data() + offset);
        const std::uint64_t sum = detail::get_u64(bytes.data() + offset + 4);
        if (size == 0 || size > detail::kMaxChunkSize)
            return fail("chunk size " + std::to_string(size) +
                        " is out of range (damaged size field)");
        if (size > left - detail::kChunkHeaderSize)
            return fail("truncated: chunk of " + std::to_string(size) + " bytes, only " +
                        std::to_string(left - detail::kChunkHeaderSize) +
                        " left, the file was cut");
        auto payload = bytes.subspan(offset + detail::kChunkHeaderSize, size);
        if (detail::checksum(payload) != sum)
            return fail("checksum mismatch: the chunk is damaged");
        std::vector<std::uint8_t> inflated;
        if (format_version >= 2) {
            const auto encoding = static_cast<detail::ChunkEncoding>(payload[0]);
            payload = payload.subspan(1);
            switch (encoding) {
                case detail::ChunkEncoding::packed_ticks:
                    if (payload.empty()) return fail("empty tick batch");
                    offset += detail::kChunkHeaderSize + size;
                    return ChunkContent{nullptr, payload};
                case detail::ChunkEncoding::zstd: {
                    auto content = detail::decompress(payload, detail::kMaxChunkSize);
                    if (!content) return content.error();
                    inflated = std::move(*content);
                    payload = inflated;
                    break;
                }
                case detail::ChunkEncoding::flatbuffers:
                    break;
                default:
                    return fail("unknown chunk encoding " +
                                std::to_string(static_cast<int>(encoding)));
            }
        }
        // Chunks sit at any offset in the file; FlatBuffers reads doubles in
        // place, so each table is copied to 8-byte-aligned memory first.
        aligned.resize((payload.size() + 7) / 8);
        std::memcpy(aligned.data(), payload.data(), payload.size());
        const auto* data = reinterpret_cast<const std::uint8_t*>(aligned.data());
        flatbuffers::Verifier verifier(data, payload.size());
        if (!schema::VerifyChunkBuffer(verifier))
            return fail("chunk is not a valid replay chunk (FlatBuffers verifier)");
        offset += detail::kChunkHeaderSize + size;
        return ChunkContent{schema::GetChunk(data), {}};
    }
};

// A file refused whole: "at byte N: why".
Error refused_at(std::size_t offset, const std::string& reason) {
    return fail("at byte " + std::to_string(offset) + ": " + reason);
}

Error too_large(std::uint64_t size) {
    return refused_at(0, "file of " + std::to_string(size) +
                             " bytes is larger than a replay may be (" +
                             std::to_string(kMaxReplayBytes) + " bytes)");
}

// A batch's ticks follow the last one read, without a gap.
Status check_first_tick(std::uint64_t first_tick, const Replay& r) {
    const std::uint64_t expected = r.last_tick() + 1;
    if (first_tick == expected) return {};
    return fail("tick batch starts at tick " + std::to_string(first_tick) + ", expected " +
                std::to_string(expected));
}

void append_batch(detail::TickBatch batch, Replay& r) {
    r.inputs.insert(r.inputs.end(), batch.inputs.begin(), batch.inputs.end());
    r.roster.insert(r.roster.end(), std::make_move_iterator(batch.roster.begin()),
                    std::make_move_iterator(batch.roster.end()));
    r.events.insert(r.events.end(), batch.events.begin(), batch.events.end());
    r.hashes.insert(r.hashes.end(), batch.hashes.begin(), batch.hashes.end());
}

}  // namespace

const char* to_string(Outcome outcome) {
    switch (outcome) {
        case Outcome::left_won:
            return "left won";
        case Outcome::right_won:
            return "right won";
        case Outcome::draw:
            return "draw";
        case Outcome::unfinished:
            return "unfinished";
    }
    return "unknown";
}

Result<Replay> read_replay(std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return refused_at(0, "empty file");
    if (bytes.size() > kMaxReplayBytes) return too_large(bytes.size());
    if (bytes.size() < detail::kPreambleSize ||
        std::memcmp(bytes.data(), detail::kMagic.data(), detail::kMagic.size()) != 0)
        return refused_at(0, "not a carom replay (bad magic)");
    const std::uint32_t version = detail::get_u32(bytes.data() + 8);
    if (version > kFormatVersion)
        return refused_at(8, "replay format version " + std::to_string(version) +
                                 " is newer than this build reads (up to " +
                                 std::to_string(kFormatVersion) + "); update carom");
    if (version == 0) return refused_at(8, "replay format version 0 does not exist");

    Replay r;
    r.file_size = bytes.size();
    r.tick_hash_bits = version >= 2 ? kTickHashBits : 64;
    ChunkReader chunks{bytes, version, detail::kPreambleSize, {}};
    const std::size_t header_offset = chunks.offset;
    const auto first = chunks.next();
    if (!first) return refused_at(header_offset, first.error().message);
    const schema::Chunk* head = first->table;
    if (!head || !head->body_as_Header())
        return refused_at(header_offset, "the first chunk is not the header");
    if (auto decoded = detail::decode(*head->body_as_Header(), r.header); !decoded)
        return refused_at(header_offset, decoded.error().message);
    // The preamble's version is outside every checksum: the header's must agree.
    if (r.header.format_version != version)
        return refused_at(8, "format version " + std::to_string(version) + " in the preamble, " +
                                 std::to_string(r.header.format_version) + " in the header");

    // A match that starts from a state: that state (the keyframe of the
    // start tick) comes right after the header, or the start is unusable.
    if (r.header.start_tick != 0) {
        const std::size_t at = chunks.offset;
        const auto start = chunks.next();
        if (!start) return refused_at(at, "the starting keyframe: " + start.error().message);
        const schema::Keyframe* key = start->table ? start->table->body_as_Keyframe() : nullptr;
        if (!key)
            return refused_at(at, "a match that starts at tick " +
                                      std::to_string(r.header.start_tick) +
                                      " needs its starting keyframe right after the header");
        Keyframe k;
        if (auto decoded = detail::decode(*key, k); !decoded)
            return refused_at(at, decoded.error().message);
        if (k.state.tick != r.header.start_tick)
            return refused_at(at, "starting keyframe of tick " + std::to_string(k.state.tick) +
                                      ", the header starts at tick " +
                                      std::to_string(r.header.start_tick));
        r.keyframes.push_back(std::move(k));
    }

    for (;;) {
        const std::size_t at = chunks.offset;
        const auto next = chunks.next();
        if (!next) {
            r.problem = ReadProblem{at, next.error().message};
            break;
        }
        const ChunkContent content = *next;
        if (content.end()) break;
        const schema::Chunk* chunk = content.table;
        const std::uint32_t slots = 2 * r.header.map.team_size;
        Status read;
        if (r.footer) {
            read = fail("chunk after the footer");
        } else if (!chunk) {
            detail::TickBatch batch;
            read = detail::decode_packed(content.packed_ticks, slots, batch);
            if (!read) read = read.error_in("tick batch");
            if (read) read = check_first_tick(batch.first_tick, r);
            if (read) append_batch(std::move(batch), r);
        } else if (const auto* batch = chunk->body_as_TickBatch()) {
            detail::TickBatch decoded;
            read = check_first_tick(batch->first_tick(), r);
            if (read && version >= 2)
                read = fail("a FlatBuffers tick batch in format " + std::to_string(version) +
                            " (packed from format 2 on)");
            if (read) read = detail::decode(*batch, slots, decoded);
            if (read) append_batch(std::move(decoded), r);
        } else if (const auto* key = chunk->body_as_Keyframe()) {
            Keyframe k;
            read = detail::decode(*key, k);
            if (read && k.state.tick != r.last_tick())
                read = fail("keyframe for tick " + std::to_string(k.state.tick) + " after tick " +
                            std::to_string(r.last_tick()));
            if (read) r.keyframes.push_back(std::move(k));
        } else if (const auto* foot = chunk->body_as_Footer()) {
            Footer f;
            read = detail::decode(*foot, f);
            if (read && f.final_tick != r.last_tick())
                read = fail("footer says the last tick is " + std::to_string(f.final_tick) +
                            ", the file holds " + std::to_string(r.last_tick()));
            if (read) r.footer = f;
        } else {
            read = fail("unexpected chunk (a second header?)");
        }
        if (!read) {
            r.problem = ReadProblem{at, read.error().message};
            break;
        }
    }
    if (!r.problem && !r.footer)
        r.problem = ReadProblem{r.file_size, "no footer: the file ends after tick " +
                                                 std::to_string(r.last_tick()) +
                                                 " (the writer stopped before finishing)"};
    return r;
}

Result<Replay> read_replay(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return refused_at(0, "cannot open " + path.string());
    // The size before reading where there is one; a pipe is read up to the limit.
    std::error_code error;
    const std::uint64_t size = std::filesystem::file_size(path, error);
    if (!error && size > kMaxReplayBytes) return too_large(size);
    std::vector<std::uint8_t> bytes;
    if (!error) bytes.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        bytes.insert(bytes.end(), buffer, buffer + in.gcount());
        if (bytes.size() > kMaxReplayBytes) return too_large(bytes.size());
    }
    if (in.bad()) return refused_at(0, "read error on " + path.string());
    return read_replay(std::span<const std::uint8_t>(bytes));
}

}  // namespace carom::replay
