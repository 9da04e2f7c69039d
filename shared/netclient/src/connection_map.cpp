// The Connection's side of the map transfer (schemas/PROTOCOL.md, "Map
// transfer"): the chunks asked for at the download's pace, taken as they
// come, and the map checked, decoded and set once they are all here.
#include "carom/client/connection.hpp"
#include "carom/protocol/map_codec.hpp"

namespace carom::client {

void Connection::fetch_map(std::uint64_t now_ms) {
    if (state_ != State::connected || replica_) return;
    fetching_ = true;
    if (!download_ || download_->hash() != admission_.map_hash ||
        download_->size() != admission_.map_bytes) {
        auto started = protocol::MapDownload::start(admission_.map_hash, admission_.map_bytes,
                                                    config_.map_download);
        if (!started) {
            close_detail_ = started.error().message;
            close(CloseReason::bad_map);
            return;
        }
        download_.emplace(std::move(*started));
    }
    request_map_chunks(now_ms);
}

void Connection::request_map_chunks(std::uint64_t now_ms) {
    if (announce_map_ && replica_ && !replica_->holds() &&
        (!announced_ms_ || now_ms - *announced_ms_ >= 100)) {
        announced_ms_ = now_ms;
        builder_.Clear();
        const auto body = net::CreateMapRequest(builder_, download_->hash());
        transmit(protocol::finish_packet(builder_, admission_.client_id, net::Body::MapRequest,
                                         body.Union()),
                 now_ms);
        return;
    }
    if (!fetching_ || !download_ || download_->complete()) return;
    const std::vector<std::uint32_t> chunks = download_->due(now_ms);
    if (chunks.empty()) return;
    builder_.Clear();
    const auto body = net::CreateMapRequestDirect(builder_, download_->hash(), &chunks);
    transmit(protocol::finish_packet(builder_, admission_.client_id, net::Body::MapRequest,
                                     body.Union()),
             now_ms);
}

void Connection::on_map_chunk(const net::MapChunk& chunk, std::uint64_t now_ms) {
    if (!fetching_ || !download_ || download_->complete() ||
        chunk.map_hash() != download_->hash()) {
        ++stats_.unexpected;
        return;
    }
    const std::span<const std::uint8_t> data =
        chunk.data() != nullptr
            ? std::span<const std::uint8_t>(chunk.data()->data(), chunk.data()->size())
            : std::span<const std::uint8_t>();
    if (download_->add(chunk.index(), data, now_ms) == protocol::MapDownload::Took::refused) {
        ++stats_.undecodable;
        return;
    }
    if (!download_->complete()) return;
    fetching_ = false;
    // Every check a map file gets, once: the verifier, the limits, playability.
    const auto refuse = [this](const std::string& why) {
        close_detail_ = "the server's map is refused: " + why;
        close(CloseReason::bad_map);
        download_.reset();  // a reconnect starts over
    };
    auto bytes = download_->bytes();
    if (!bytes) return refuse(bytes.error().message);
    auto map = protocol::checked_map_from_binary(*bytes);
    if (!map) return refuse(map.error().message);
    MapReady ready{"the server", {}};
    if (maps_ != nullptr) {
        if (const Status kept = maps_->keep(download_->hash(), *map, std::move(*bytes)); !kept)
            ready.keep_problem = kept.error().message;
    }
    stored_hash_ = download_->hash();
    use_map(std::move(*map), std::move(ready));
    announce_map_ = true;
    announced_ms_.reset();
    request_map_chunks(now_ms);
}

}  // namespace carom::client
