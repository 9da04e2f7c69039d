#pragma once
// Asks a server what it runs (the status query, schemas/PROTOCOL.md
// "Status") as a state machine, like Connection: datagrams in, bytes out
// through `send`, time passed in. A request is resent every retry interval
// until its page comes; pages are asked for until every room is listed.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include <flatbuffers/flatbuffers.h>

#include "carom/protocol/status.hpp"
#include "carom/result.hpp"

namespace carom::client {

class StatusQuery {
  public:
    using SendFn = std::function<void(std::span<const std::uint8_t>)>;
    struct Config {
        std::uint64_t retry_ms = 250;
        std::uint64_t timeout_ms = 5000;
    };
    // Rooms listed at most (a server may run 4096; a reply names its total).
    static constexpr std::uint32_t kMaxRooms = 4096;

    StatusQuery(Config config, SendFn send);

    void start(std::uint64_t now_ms);
    void update(std::uint64_t now_ms);
    // Any bytes: what is not the Status page asked for is ignored.
    void on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms);

    bool done() const { return result_.has_value(); }
    // Once done: every room, or why not (no answer in time).
    const Result<protocol::ServerStatus>& result() const { return *result_; }

  private:
    void ask(std::uint64_t now_ms);

    Config config_;
    SendFn send_;
    flatbuffers::FlatBufferBuilder builder_{1280};
    std::uint64_t started_ms_ = 0, asked_ms_ = 0;
    protocol::ServerStatus status_;  // the pages so far
    bool first_page_ = true;
    std::optional<Result<protocol::ServerStatus>> result_;
    std::uint64_t aligned_[protocol::kStatusRequestMinBytes / 8 + 1] = {};
};

}  // namespace carom::client
