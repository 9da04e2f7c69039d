#include "carom/protocol/map_transfer.hpp"

#define XXH_INLINE_ALL  // header-only, as the core uses it: no library to cross-link
#include <xxhash.h>

#include <algorithm>
#include <string>

namespace carom::protocol {
namespace {

constexpr std::uint64_t kMinRetryMs = 100;
constexpr std::uint64_t kMaxRetryMs = 2000;

}  // namespace

std::uint64_t map_bytes_hash(std::span<const std::uint8_t> bytes) {
    return XXH3_64bits(bytes.data(), bytes.size());
}

Result<MapDownload> MapDownload::start(std::uint64_t hash, std::uint32_t bytes, Config config) {
    if (bytes == 0) return fail("the server names a map of 0 bytes");
    if (bytes > kMaxMapBytes)
        return fail("the server's map is " + std::to_string(bytes) +
                    " bytes, more than a map may be (" + std::to_string(kMaxMapBytes) + ")");
    return MapDownload(hash, bytes, config);
}

MapDownload::MapDownload(std::uint64_t hash, std::uint32_t bytes, Config config)
    : hash_(hash),
      config_(config),
      data_(bytes),
      received_(chunk_count(bytes), false),
      asked_ms_(chunk_count(bytes), 0),
      retry_ms_(config.first_retry_ms) {
    config_.window = std::max<std::size_t>(config_.window, 1);
}

std::vector<std::uint32_t> MapDownload::due(std::uint64_t now_ms) {
    // A chunk asked for within the retry time is on its way; the window
    // bounds those, the rest are asked for (again) in index order.
    const auto waiting = [&](std::uint32_t i) {
        return asked_ms_[i] != 0 && now_ms - asked_ms_[i] < retry_ms_;
    };
    std::size_t in_flight = 0;
    for (std::uint32_t i = first_missing_; i < chunks(); ++i)
        in_flight += !received_[i] && waiting(i) ? 1U : 0U;
    std::vector<std::uint32_t> ask;
    for (std::uint32_t i = first_missing_; i < chunks(); ++i) {
        if (ask.size() == kMaxChunksPerRequest || in_flight + ask.size() >= config_.window) break;
        if (received_[i] || waiting(i)) continue;
        asked_ms_[i] = std::max<std::uint64_t>(now_ms, 1);
        ask.push_back(i);
    }
    return ask;
}

MapDownload::Took MapDownload::add(std::uint32_t index, std::span<const std::uint8_t> data,
                                   std::uint64_t now_ms) {
    if (index >= chunks()) return Took::refused;
    const std::size_t at = std::size_t{index} * kMapChunkBytes;
    if (data.size() != std::min(kMapChunkBytes, data_.size() - at)) return Took::refused;
    if (received_[index]) return Took::duplicate;
    std::copy(data.begin(), data.end(), data_.begin() + static_cast<std::ptrdiff_t>(at));
    received_[index] = true;
    ++held_;
    while (first_missing_ < chunks() && received_[first_missing_])
        ++first_missing_;
    if (asked_ms_[index] != 0 && now_ms >= asked_ms_[index]) {
        const auto took = static_cast<double>(now_ms - asked_ms_[index]);
        smoothed_ms_ = smoothed_ms_ == 0.0 ? took : 0.875 * smoothed_ms_ + 0.125 * took;
        retry_ms_ = std::clamp(static_cast<std::uint64_t>(2.0 * smoothed_ms_) + kMinRetryMs,
                               kMinRetryMs, kMaxRetryMs);
    }
    return Took::fresh;
}

Result<std::vector<std::uint8_t>> MapDownload::bytes() const {
    if (!complete())
        return fail(std::to_string(chunks() - held_) + " of the map's chunks are missing");
    if (map_bytes_hash(data_) != hash_)
        return fail("the map's bytes do not hash to the hash the server named");
    return data_;
}

std::size_t MapDownload::bytes_held() const {
    std::size_t n = std::size_t{held_} * kMapChunkBytes;
    if (!received_.empty() && received_.back()) n -= chunks() * kMapChunkBytes - data_.size();
    return n;
}

}  // namespace carom::protocol
