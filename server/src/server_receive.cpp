// Datagrams into the Server: refused as cheaply as possible when they are
// not valid, then handed on by type; a session's come sealed and are opened
// with its keys first; a client's inputs and acknowledgement.
#include "server.hpp"

#include <spdlog/spdlog.h>

#include "carom/game/printable_name.hpp"
#include "carom/protocol/packet.hpp"
#include "carom/protocol/seal.hpp"

namespace carom::server {

void Server::receive(const Endpoint& from, std::span<const std::uint8_t> datagram) {
    ++stats_.packets_in;
    stats_.bytes_in += datagram.size();
    const auto refuse = [&](protocol::PacketError error) {
        ++stats_.invalid[static_cast<std::size_t>(error)];
        // Formatting the address costs an allocation: only when it is logged.
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped {} bytes from {}: {}", datagram.size(), from.to_string(),
                          protocol::to_string(error));
    };
    // The cheap refusals first (size, identifier, version), before the
    // verifier or any hash: a flood of junk costs a few compares a datagram.
    const protocol::DatagramKind kind = protocol::classify(datagram);
    const bool sized =
        kind != protocol::DatagramKind::too_short && kind != protocol::DatagramKind::too_long;
    if (sized && protocol::is_sealed(datagram)) return on_sealed(from, datagram);
    // The session's datagrams come sealed: one in the clear is forged.
    if (kind == protocol::DatagramKind::client_update) return drop_packet(from, Drop::unsealed);
    if (kind == protocol::DatagramKind::server_update)
        return drop_packet(from, Drop::unexpected_type);
    if (kind != protocol::DatagramKind::packet) return refuse(protocol::refusal_of(kind));
    const auto version = protocol::peek_protocol(datagram);
    if (!version) return refuse(protocol::PacketError::malformed);
    // Another version is only answered (Denied version_mismatch) for a padded
    // ConnectRequest: anything shorter is refused here.
    if (*version != protocol::kProtocolVersion &&
        datagram.size() < protocol::kConnectRequestMinBytes)
        return refuse(protocol::PacketError::wrong_version);
    const auto verified = protocol::verify_packet(datagram);
    if (!verified) return refuse(protocol::PacketError::malformed);
    const net::Packet& packet = **verified;

    switch (packet.body_type()) {
        case net::Body::ConnectRequest:
            on_connect_request(from, packet, datagram.size());
            return;
        case net::Body::ConnectResponse:
            on_connect_response(from, packet, datagram.size());
            return;
        case net::Body::StatusRequest:
            on_status_request(from, *packet.body_as_StatusRequest(), datagram.size());
            return;
        case net::Body::KeepAlive:
        case net::Body::Disconnect:
        case net::Body::MapRequest:
            return drop_packet(from, Drop::unsealed);
        default:
            return drop_packet(from, Drop::unexpected_type);
    }
}

void Server::on_sealed(const Endpoint& from, std::span<const std::uint8_t> datagram) {
    // Before any cryptography: a flood from addresses without a session costs a lookup.
    Session* session = find_by_endpoint(from);
    if (session == nullptr || !session->seal) return drop_packet(from, Drop::unknown_sender);
    protocol::SealRefusal refused{};
    const std::span<const std::uint8_t> inner = session->seal->open(datagram, opened_, refused);
    if (inner.empty()) {
        switch (refused) {
            case protocol::SealRefusal::bad_tag:
                return drop_packet(from, Drop::bad_tag);
            case protocol::SealRefusal::old_sequence:
                return drop_packet(from, Drop::old_sequence);
            case protocol::SealRefusal::replayed:
                return drop_packet(from, Drop::replayed_sequence);
            case protocol::SealRefusal::far_ahead:
                return drop_packet(from, Drop::far_ahead_sequence);
            default:
                ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
                return;
        }
    }
    // Sealed by the session's client: what is inside is still checked as any datagram is.
    switch (protocol::classify(inner)) {
        case protocol::DatagramKind::client_update:
            return on_client_update(*session, inner);
        case protocol::DatagramKind::packet:
            return on_session_packet(*session, inner);
        default:
            return drop_packet(from, Drop::unexpected_type);
    }
}

void Server::on_session_packet(Session& s, std::span<const std::uint8_t> datagram) {
    const auto verified = protocol::verify_packet(datagram);
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    const net::Packet& packet = **verified;
    const net::Body type = packet.body_type();
    if (type != net::Body::KeepAlive && type != net::Body::Disconnect &&
        type != net::Body::MapRequest)
        return drop_packet(s.endpoint, Drop::unexpected_type);
    Session* session = &s;
    if (packet.client_id() != session->client_id)
        return drop_packet(s.endpoint, Drop::wrong_client_id);
    session->last_heard_tick = tick_;
    if (const auto* request = packet.body_as_MapRequest())
        return on_map_request(*session, *request);
    if (packet.body_as_Disconnect() != nullptr) {
        spdlog::info("client {} ({}) left", session->client_id,
                     game::printable_name(session->name));
        remove_session(session->client_id);
    }
}

void Server::drop_packet(const Endpoint& from, Drop why) {
    ++stats_.dropped[static_cast<std::size_t>(why)];
    if (spdlog::should_log(spdlog::level::debug))
        spdlog::debug("dropped a packet from {}: {}", from.to_string(), to_string(why));
}

void Server::on_client_update(Session& s, std::span<const std::uint8_t> datagram) {
    Session* session = &s;
    const Endpoint& from = s.endpoint;
    const auto verified = protocol::verify_client_update(datagram);
    if (!verified) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        return;
    }
    const auto report =
        protocol::decode_client_report(**verified, tick_, session->inputs.last_applied_sequence());
    if (!report) {
        ++stats_.invalid[static_cast<std::size_t>(protocol::PacketError::malformed)];
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("dropped an update from {}: {}", from.to_string(),
                          report.error().message);
        return;
    }
    session->last_heard_tick = tick_;
    on_report(*session, *report);
}

void Server::on_report(Session& session, const protocol::ClientReport& report) {
    if (!report.ack) {
        // It holds no state (it lost its own, or never had one): a FullState.
        session.acked = 0;
        // Its first word after the join's FullState left: a round trip, give
        // or take the tick that FullState waited for.
        if (!session.round_trip.ticks() && session.full_sent_tick != 0 &&
            tick_ > session.full_sent_tick)
            session.round_trip.sample(tick_ - session.full_sent_tick, tick_);
    } else if (*report.ack > session.acked) {
        map_transfer_done(session);
        session.round_trip.sample(tick_ - *report.ack, tick_);
        session.acked = *report.ack;
        session.ack_unanswered = true;
        if (session.acked >= session.full_sent_tick) {
            session.full_sent_tick = 0;
            session.full_copy.clear();
        }
    }
    if (!session.slot) return;
    const std::size_t n = report.inputs.size();
    const std::uint64_t overflowed_before = session.inputs.overflowed();
    for (std::size_t i = 0; i < n; ++i) {
        const auto sequence = report.sequence - static_cast<std::uint32_t>(n - 1 - i);
        switch (session.inputs.offer(sequence, report.inputs[i].bits())) {
            case InputQueue::Offer::queued:
                // Not the report's newest: its own packet was lost or overtaken.
                if (i + 1 < n) ++stats_.inputs_recovered;
                break;
            case InputQueue::Offer::duplicate:
                ++stats_.inputs_duplicate;
                break;
            case InputQueue::Offer::stale:
                ++stats_.inputs_stale;
                break;
        }
    }
    stats_.inputs_overflowed += session.inputs.overflowed() - overflowed_before;
}

}  // namespace carom::server
