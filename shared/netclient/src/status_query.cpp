#include "carom/client/status_query.hpp"

#include <cstring>

#include "carom/protocol/packet.hpp"

namespace carom::client {

StatusQuery::StatusQuery(Config config, SendFn send) : config_(config), send_(std::move(send)) {}

void StatusQuery::start(std::uint64_t now_ms) {
    started_ms_ = now_ms;
    status_ = {};
    first_page_ = true;
    result_.reset();
    ask(now_ms);
}

void StatusQuery::ask(std::uint64_t now_ms) {
    asked_ms_ = now_ms;
    const auto first = static_cast<std::uint32_t>(status_.rooms.size());
    send_(protocol::encode_status_request(builder_, first));
}

void StatusQuery::update(std::uint64_t now_ms) {
    if (done()) return;
    if (now_ms - started_ms_ >= config_.timeout_ms) {
        result_ =
            fail("no status reply within " + std::to_string(config_.timeout_ms / 1000) + " s");
    } else if (now_ms - asked_ms_ >= config_.retry_ms) {
        ask(now_ms);
    }
}

void StatusQuery::on_datagram(std::span<const std::uint8_t> bytes, std::uint64_t now_ms) {
    if (done() || bytes.size() > sizeof aligned_) return;
    std::memcpy(aligned_, bytes.data(), bytes.size());  // FlatBuffers wants 8-byte alignment
    bytes = {reinterpret_cast<const std::uint8_t*>(aligned_), bytes.size()};
    if (protocol::classify(bytes) != protocol::DatagramKind::packet) return;
    const auto packet = protocol::verify_packet(bytes);
    if (!packet) return;
    const net::Status* page = (*packet)->body_as_Status();
    if (page == nullptr) return;
    protocol::ServerStatus got = protocol::decode_status(*page);
    const auto have = static_cast<std::uint32_t>(status_.rooms.size());
    if (got.first_room != have) return;  // a page asked for before, come late
    if (first_page_) {
        first_page_ = false;
        std::vector<protocol::RoomInfo> rooms = std::move(status_.rooms);
        status_ = got;
        status_.rooms = std::move(rooms);
        status_.rooms_total = std::min(status_.rooms_total, kMaxRooms);
    }
    for (protocol::RoomInfo& room : got.rooms)
        if (status_.rooms.size() < status_.rooms_total) status_.rooms.push_back(std::move(room));
    // A page without a room before the end would never finish: the list ends there.
    if (status_.rooms.size() >= status_.rooms_total || got.rooms.empty()) {
        status_.rooms_total = static_cast<std::uint32_t>(status_.rooms.size());
        result_ = status_;
        return;
    }
    ask(now_ms);
}

}  // namespace carom::client
