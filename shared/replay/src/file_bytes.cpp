#include "carom/replay/file_bytes.hpp"

#include <string>

#include "chunk_codec.hpp"
#include "file_format.hpp"

namespace carom::replay {

Result<FileBytes> count_file_bytes(std::span<const std::uint8_t> file) {
    if (file.size() < detail::kPreambleSize || detail::get_u32(file.data() + 8) < 2)
        return fail("not a replay of format 2 or later");
    FileBytes b;
    b.framing = detail::kPreambleSize;
    std::uint32_t slots = detail::kMaxSlots;  // from the header, once read
    for (std::size_t at = detail::kPreambleSize; at < file.size();) {
        if (file.size() - at < detail::kChunkHeaderSize) return fail("cut chunk header");
        const std::uint32_t size = detail::get_u32(file.data() + at);
        if (size == 0 || size > file.size() - at - detail::kChunkHeaderSize)
            return fail("cut chunk at byte " + std::to_string(at));
        const auto payload = file.subspan(at + detail::kChunkHeaderSize, size);
        b.framing += detail::kChunkHeaderSize + 1;  // with the encoding byte
        const auto body = payload.subspan(1);
        switch (static_cast<detail::ChunkEncoding>(payload[0])) {
            case detail::ChunkEncoding::packed_ticks: {
                detail::TickBatch batch;
                detail::PackedSizes sizes;
                if (auto read = detail::decode_packed(body, slots, batch, &sizes); !read)
                    return read.error();
                b.inputs += sizes.inputs;
                b.roster += sizes.roster;
                b.events += sizes.events;
                b.hashes += sizes.hashes;
                b.framing +=
                    body.size() - sizes.inputs - sizes.roster - sizes.events - sizes.hashes;
                break;
            }
            case detail::ChunkEncoding::zstd:
            case detail::ChunkEncoding::flatbuffers: {
                std::vector<std::uint8_t> table(body.begin(), body.end());
                if (payload[0] == static_cast<std::uint8_t>(detail::ChunkEncoding::zstd)) {
                    auto inflated = detail::decompress(body, detail::kMaxChunkSize);
                    if (!inflated) return inflated.error();
                    table = std::move(*inflated);
                }
                flatbuffers::Verifier verifier(table.data(), table.size());
                if (!schema::VerifyChunkBuffer(verifier)) return fail("a chunk fails the verifier");
                const schema::Chunk* chunk = schema::GetChunk(table.data());
                if (const auto* h = chunk->body_as_Header()) {
                    b.header += body.size();
                    slots = 2 * h->map()->team_size();
                } else if (chunk->body_as_Keyframe()) {
                    b.keyframes += body.size();
                } else if (chunk->body_as_Footer()) {
                    b.footer += body.size();
                } else {
                    return fail("unexpected chunk");
                }
                break;
            }
            default:
                return fail("unknown chunk encoding");
        }
        at += detail::kChunkHeaderSize + size;
    }
    return b;
}

}  // namespace carom::replay
