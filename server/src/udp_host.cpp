#include "udp_host.hpp"

#include <spdlog/spdlog.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>

namespace carom::server {
namespace {

using Clock = std::chrono::steady_clock;

std::optional<Endpoint> to_endpoint(const sockaddr_storage& address) {
    Endpoint out;
    if (address.ss_family == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &address, sizeof v4);
        out.address[10] = out.address[11] = 0xFF;  // IPv4-mapped
        std::memcpy(&out.address[12], &v4.sin_addr, 4);
        out.port = ntohs(v4.sin_port);
        return out;
    }
    if (address.ss_family == AF_INET6) {
        sockaddr_in6 v6{};
        std::memcpy(&v6, &address, sizeof v6);
        std::memcpy(out.address.data(), &v6.sin6_addr, 16);
        out.port = ntohs(v6.sin6_port);
        return out;
    }
    return std::nullopt;
}

asio::ip::udp::endpoint to_asio(const Endpoint& e, bool v4_socket) {
    const asio::ip::address_v6 v6(e.address);
    if (v4_socket) return {asio::ip::make_address_v4(asio::ip::v4_mapped, v6), e.port};
    return {v6, e.port};
}

nlohmann::json stats_json(const Server& server, const UdpTransport& transport,
                          const TickFigures& ticks, std::uint64_t uptime_s) {
    const Stats& s = server.stats();
    nlohmann::json invalid = nlohmann::json::object();
    for (std::size_t i = 0; i < s.invalid.size(); ++i)
        invalid[std::string(protocol::to_string(static_cast<protocol::PacketError>(i)))] =
            s.invalid[i];
    for (std::size_t i = 0; i < s.dropped.size(); ++i)
        invalid[to_string(static_cast<Drop>(i))] = s.dropped[i];
    const std::uint32_t players = server.player_count();
    return {
        {"healthy", true},
        {"uptime_s", uptime_s},
        {"tick", server.current_tick()},
        {"tick_ms_p50", ticks.work_ms.percentile(0.5)},
        {"tick_ms_p99", ticks.work_ms.percentile(0.99)},
        {"tick_ms_max", ticks.work_ms.max()},
        {"tick_late_ms_p50", ticks.late_ms.percentile(0.5)},
        {"tick_late_ms_p99", ticks.late_ms.percentile(0.99)},
        {"tick_late_ms_max", ticks.late_ms.max()},
        {"tick_rooms_ms_p99", ticks.rooms_ms.percentile(0.99)},
        {"tick_udp_ms_p99", ticks.udp_ms.percentile(0.99)},
        {"tick_door_ms_p99", ticks.door_ms.percentile(0.99)},
        {"ticks_catch_up", s.ticks_catch_up},
        {"ticks_dropped", s.ticks_dropped},
        {"clients", server.session_count()},
        {"players", players},
        {"rooms", server.room_count()},
        {"matches_finished", server.matches_finished()},
        {"packets_in", s.packets_in},
        {"bytes_in", s.bytes_in},
        {"packets_out", s.packets_out},
        {"bytes_out", s.bytes_out},
        {"send_errors", transport.send_errors()},
        {"receive",
         {{"wakeups", transport.receive_stats().wakeups},
          {"datagrams", transport.receive_stats().datagrams},
          {"yields_budget", transport.receive_stats().yields_budget},
          {"yields_tick_due", transport.receive_stats().yields_tick_due},
          {"dropped_unread", transport.receive_stats().dropped_unread}}},
        {"invalid", invalid},
        {"invalid_total", s.invalid_total()},
        {"inputs_stale", s.inputs_stale},
        {"inputs_duplicate", s.inputs_duplicate},
        {"inputs_repeated", s.inputs_repeated},
        {"inputs_overflowed", s.inputs_overflowed},
        {"inputs_recovered", s.inputs_recovered},
        {"full_states", s.full_states},
        {"full_state_bytes", s.full_state_bytes},
        {"full_states_held_back", s.full_states_held_back},
        {"map_transfers",
         {{"started", s.map_transfers_started},
          {"completed", s.map_transfers_completed},
          {"failed", s.map_transfers_failed},
          {"chunks", s.map_chunks_out},
          {"bytes", s.map_bytes_out}}},
        {"status_answered", s.status_answered},
        {"status_refused", s.status_refused},
        {"updates", s.updates},
        {"replay_write_errors", s.replay_write_errors},
        {"rooms_failed", s.rooms_failed},
        {"replay_bytes_kept", s.replay_bytes_kept},
        {"replay_files_removed", s.replay_files_removed},
    };
}

// Written to a temporary name and renamed, so a reader never sees half a file.
void write_atomically(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << text << '\n';
        if (!out) {
            spdlog::warn("cannot write {}", tmp.string());
            return;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) spdlog::warn("cannot write {}: {}", path.string(), ec.message());
}

void flush_doors(UdpTransport& transport, const HostOptions& options) {
    transport.flush();
    if (options.web != nullptr) options.web->flush();
}

// Runs the ticks that are due, a whole period apart however late each ran:
// a bounded number catch up, the rest are skipped (and counted). Each tick's
// work (the rooms, then the sends: UDP's, and the door's hand-over) and
// lateness go to `on_tick` and into `figures`; the door's thread is woken
// after the work.
void run_due_ticks(Server& server, UdpTransport& transport, const HostOptions& options,
                   Clock::duration period, Clock::time_point& next,
                   std::initializer_list<TickFigures*> figures) {
    std::uint32_t ran = 0;
    while (Clock::now() >= next && ran < options.max_catch_up_ticks) {
        const auto t0 = Clock::now();
        const double late = std::chrono::duration<double, std::milli>(t0 - next).count();
        if (ran > 0) server.note_catch_up_tick();
        server.tick();
        const auto t1 = Clock::now();
        transport.flush();
        const auto t2 = Clock::now();
        if (options.web != nullptr) options.web->hand_over();
        const auto t3 = Clock::now();
        const auto in_ms = [](Clock::duration d) {
            return std::chrono::duration<double, std::milli>(d).count();
        };
        const double ms = in_ms(t3 - t0);
        server.set_last_tick_ms(static_cast<float>(ms));
        if (options.on_tick) options.on_tick(ms, late);
        for (TickFigures* f : figures) {
            f->work_ms.add(ms);
            f->late_ms.add(late);
            f->rooms_ms.add(in_ms(t1 - t0));
            f->udp_ms.add(in_ms(t2 - t1));
            f->door_ms.add(in_ms(t3 - t2));
        }
        next += period;
        ++ran;
    }
    // After the ticks' work (see Door::hand_over).
    if (options.web != nullptr) options.web->start_delivery();
    if (Clock::now() >= next) {
        const auto behind = (Clock::now() - next) / period + 1;
        next += behind * period;
        server.note_dropped_ticks(static_cast<std::uint64_t>(behind));
        spdlog::warn("server is {} ticks behind; skipped them", behind);
    }
}

// The periodic stats line, from stats_json's figures.
void log_stats_line(const nlohmann::json& j) {
    spdlog::info(
        "stats: tick p50 {:.3f} ms p99 {:.3f} ms (p99 rooms {:.3f}, UDP sends {:.3f}, "
        "door hand-over {:.3f} ms), late p99 {:.3f} max {:.3f} ms, "
        "{} catch-up, {} clients, {} rooms, in {} pkt/{} B, "
        "out {} pkt/{} B, send errors {}, invalid {} {}",
        j["tick_ms_p50"].get<double>(), j["tick_ms_p99"].get<double>(),
        j["tick_rooms_ms_p99"].get<double>(), j["tick_udp_ms_p99"].get<double>(),
        j["tick_door_ms_p99"].get<double>(), j["tick_late_ms_p99"].get<double>(),
        j["tick_late_ms_max"].get<double>(), j["ticks_catch_up"].get<std::uint64_t>(),
        j["clients"].get<std::size_t>(), j["rooms"].get<std::uint32_t>(),
        j["packets_in"].get<std::uint64_t>(), j["bytes_in"].get<std::uint64_t>(),
        j["packets_out"].get<std::uint64_t>(), j["bytes_out"].get<std::uint64_t>(),
        j["send_errors"].get<std::uint64_t>(), j["invalid_total"].get<std::uint64_t>(),
        j["invalid"].dump());
}

// The line saying where the server listens, then on_listening and the ready file.
void announce_listening(const Server& server, const UdpTransport& transport,
                        const HostOptions& options) {
    const auto local = transport.local_endpoint();
    spdlog::info(
        "listening on {} port {} ({} rooms, {} Hz ticks, {} Hz updates; socket buffers {} KiB "
        "in, {} KiB out)",
        local.address().to_string(), local.port(), server.room_count(), game::kTickRate,
        server.config().update_rate_hz, transport.receive_buffer_bytes() / 1024,
        transport.send_buffer_bytes() / 1024);
    if (options.on_listening) options.on_listening();
    if (!options.ready_file.empty()) {
        nlohmann::json ready{{"port", local.port()}, {"pid", ::getpid()}};
        ready.update(options.ready_extra);
        write_atomically(options.ready_file, ready.dump());
    }
}

}  // namespace

UdpTransport::UdpTransport(asio::io_context& io, const std::string& bind_address,
                           std::uint16_t port, int socket_buffer_bytes)
    : socket_(io) {
    const asio::ip::address address = asio::ip::make_address(bind_address);
    const asio::ip::udp::endpoint local(address, port);
    socket_.open(local.protocol());
    v4_ = address.is_v4();
    // "::" serves IPv4 clients too, as IPv4-mapped addresses.
    if (address.is_v6()) socket_.set_option(asio::ip::v6_only(false));
    socket_.bind(local);
    socket_.non_blocking(true);
    // Best effort: a smaller buffer than asked for is logged by the host, not fatal.
    std::error_code ignored;
    socket_.set_option(asio::socket_base::receive_buffer_size(socket_buffer_bytes), ignored);
    socket_.set_option(asio::socket_base::send_buffer_size(socket_buffer_bytes), ignored);
    // The kernel then tells, with each datagram, how many it dropped unread.
    const int on = 1;
    (void)::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on);
}

int UdpTransport::receive_buffer_bytes() const {
    asio::socket_base::receive_buffer_size option;
    std::error_code ec;
    socket_.get_option(option, ec);
    return ec ? 0 : option.value();
}

int UdpTransport::send_buffer_bytes() const {
    asio::socket_base::send_buffer_size option;
    std::error_code ec;
    socket_.get_option(option, ec);
    return ec ? 0 : option.value();
}

void UdpTransport::send(const Endpoint& to, std::span<const std::uint8_t> datagram) {
    if (datagram.size() > out_[0].bytes.size()) {
        ++send_errors_;
        return;
    }
    if (queued_ == kBatch) flush();
    std::memcpy(out_[queued_].bytes.data(), datagram.data(), datagram.size());
    out_sizes_[queued_] = datagram.size();
    const asio::ip::udp::endpoint destination = to_asio(to, v4_);
    std::memcpy(&out_to_[queued_], destination.data(), destination.size());
    out_to_sizes_[queued_] = static_cast<socklen_t>(destination.size());
    ++queued_;
}

void UdpTransport::flush() {
    std::array<mmsghdr, kBatch> messages{};
    std::array<iovec, kBatch> vectors{};
    for (std::size_t i = 0; i < queued_; ++i) {
        vectors[i] = {out_[i].bytes.data(), out_sizes_[i]};
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
        messages[i].msg_hdr.msg_name = &out_to_[i];
        messages[i].msg_hdr.msg_namelen = out_to_sizes_[i];
    }
    std::size_t done = 0;
    while (done < queued_ && socket_.is_open()) {
        const int n = ::sendmmsg(socket_.native_handle(), messages.data() + done,
                                 static_cast<unsigned>(queued_ - done), MSG_DONTWAIT);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
        } else {
            // UDP is best effort: a full send buffer or an unreachable peer loses this datagram
            // only.
            ++send_errors_;
            ++done;
        }
    }
    queued_ = 0;
}

void UdpTransport::start_receiving(
    std::function<void(const Endpoint&, std::span<const std::uint8_t>)> handler) {
    handler_ = std::move(handler);
    receive_next();
}

void UdpTransport::receive_next() {
    socket_.async_wait(asio::ip::udp::socket::wait_read, [this](std::error_code ec) {
        if (ec == asio::error::operation_aborted || !socket_.is_open()) return;
        if (!ec) receive_batch();
        receive_next();
    });
}

void UdpTransport::receive_batch() {
    std::array<mmsghdr, kBatch> messages{};
    std::array<iovec, kBatch> vectors{};
    std::array<sockaddr_storage, kBatch> senders{};
    // Room for the SO_RXQ_OVFL counter the kernel attaches to each datagram.
    struct alignas(cmsghdr) Control {
        std::array<char, CMSG_SPACE(sizeof(std::uint32_t))> bytes;
    };
    std::array<Control, kBatch> controls{};
    const auto reset = [&](std::size_t i) {
        messages[i].msg_hdr.msg_namelen = sizeof(sockaddr_storage);
        messages[i].msg_hdr.msg_control = controls[i].bytes.data();
        messages[i].msg_hdr.msg_controllen = controls[i].bytes.size();
    };
    for (std::size_t i = 0; i < kBatch; ++i) {
        vectors[i] = {buffers_[i].bytes.data(), buffers_[i].bytes.size()};
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
        messages[i].msg_hdr.msg_name = &senders[i];
        reset(i);
    }
    ++receive_stats_.wakeups;
    std::size_t read = 0;
    for (;;) {
        const int n = ::recvmmsg(socket_.native_handle(), messages.data(),
                                 static_cast<unsigned>(kBatch), MSG_DONTWAIT, nullptr);
        // Nothing left (EAGAIN), or an ICMP error from an earlier send: neither is fatal.
        if (n <= 0) return;
        read += static_cast<std::size_t>(n);
        receive_stats_.datagrams += static_cast<std::uint64_t>(n);
        for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
            for (cmsghdr* c = CMSG_FIRSTHDR(&messages[i].msg_hdr); c != nullptr;
                 c = CMSG_NXTHDR(&messages[i].msg_hdr, c)) {
                if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_RXQ_OVFL) continue;
                std::uint32_t total = 0;  // the socket's drops so far, wrapping at 2^32
                std::memcpy(&total, CMSG_DATA(c), sizeof total);
                if (overflow_known_)
                    receive_stats_.dropped_unread += total - overflow_seen_;
                else
                    receive_stats_.dropped_unread += total;
                overflow_seen_ = total;
                overflow_known_ = true;
            }
            const std::optional<Endpoint> from = to_endpoint(senders[i]);
            if (from && socket_.is_open())
                handler_(*from, std::span(buffers_[i].bytes.data(), messages[i].msg_len));
            reset(i);
        }
        flush();  // the replies to this batch
        if (static_cast<std::size_t>(n) < kBatch) return;
        // More may be waiting: the tick comes first, and no wake-up reads without end.
        if (Clock::now() >= deadline_) {
            ++receive_stats_.yields_tick_due;
            return;
        }
        if (read >= kMaxPerWakeup) {
            ++receive_stats_.yields_budget;
            return;
        }
    }
}

void UdpTransport::close() {
    flush();
    std::error_code ec;
    socket_.close(ec);
}

int run_host(asio::io_context& io, asio::signal_set& signals, UdpTransport& transport,
             Server& server, const HostOptions& options) {
    const auto period = std::chrono::nanoseconds(1'000'000'000 / game::kTickRate);
    const auto started = Clock::now();
    auto next = started + period;
    asio::steady_timer timer(io);
    TickFigures report_ticks;  // since the last stats line
    TickFigures file_ticks;    // since the last stats file
    auto next_report = started + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options.stats_interval_s));
    auto next_file = started + std::chrono::seconds(1);
    bool stopping = false;

    const Door::Handler receive = [&server](const Endpoint& from,
                                            std::span<const std::uint8_t> bytes) {
        server.receive(from, bytes);
    };
    transport.start_receiving(receive);
    // The door's messages, a budget at a time: what is left when the tick is
    // due waits for the drain before it.
    std::function<void()> drain_web = [&] {
        if (stopping || options.web == nullptr) return;
        const std::size_t n = options.web->drain(UdpTransport::kMaxPerWakeup, receive);
        flush_doors(transport, options);
        if (n == UdpTransport::kMaxPerWakeup && Clock::now() < next) asio::post(io, drain_web);
    };
    if (options.web != nullptr)
        options.web->set_wake([&io, &drain_web] { asio::post(io, [&drain_web] { drain_web(); }); });

    const auto uptime = [&] {
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started).count());
    };

    std::function<void()> arm;
    const auto on_timer = [&](std::error_code ec) {
        if (ec || stopping) return;
        drain_web();
        run_due_ticks(server, transport, options, period, next, {&report_ticks, &file_ticks});
        const auto now = Clock::now();
        if (options.stats_interval_s > 0 && now >= next_report) {
            log_stats_line(stats_json(server, transport, report_ticks, uptime()));
            report_ticks.clear();
            next_report += std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double>(options.stats_interval_s));
        }
        if (!options.stats_file.empty() && now >= next_file) {
            write_atomically(options.stats_file,
                             stats_json(server, transport, file_ticks, uptime()).dump());
            file_ticks.clear();
            next_file += std::chrono::seconds(1);
        }
        arm();
    };
    arm = [&] {
        transport.set_receive_deadline(next);
        timer.expires_at(next);
        timer.async_wait(on_timer);
    };
    arm();

    signals.async_wait([&](std::error_code ec, int signal) {
        if (ec) return;
        // Handlers run between ticks on this thread: the current tick is finished.
        spdlog::info("signal {}: shutting down", signal);
        stopping = true;
        if (options.on_stopping) options.on_stopping();
        timer.cancel();
        server.shutdown();
        if (options.web != nullptr) options.web->flush();  // the browsers' Disconnect
        transport.close();
    });

    announce_listening(server, transport, options);
    io.run();
    if (options.web != nullptr) options.web->set_wake(nullptr);
    if (!options.stats_file.empty()) {
        nlohmann::json j = stats_json(server, transport, file_ticks, uptime());
        j["healthy"] = false;  // stopped
        write_atomically(options.stats_file, j.dump());
    }
    spdlog::info("stopped after {} ticks", server.current_tick());
    return 0;
}

}  // namespace carom::server
