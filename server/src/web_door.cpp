// The HTTP port's Boost.Beast side: the accept loop, HTTP requests, and the
// WebSocket links that carry datagrams. Everything here runs on the door's
// own thread but drain(), send(), hand_over() and start_delivery(), which
// the tick thread calls (the inbox and the handed-over outbox are the only
// state both touch).
// Datagrams cross between the threads in batches whose buffers go back and
// forth, emptied but kept: none is allocated on one thread and freed on the
// other (which would make each thread take the other's allocator lock).
#include "web_door.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <charconv>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "carom/protocol/packet.hpp"
#include "web_page.hpp"

namespace carom::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

namespace {

constexpr auto kHandshakeTime = std::chrono::seconds(10);  // TLS, and the WebSocket upgrade
constexpr auto kRequestTime = std::chrono::seconds(15);    // a whole HTTP request
// A link with nothing heard for this long is pinged, and closed after as long
// again without an answer. A hidden tab's page answers pings (the browser
// does) and updates, whatever its timers do.
constexpr auto kIdleTime = std::chrono::seconds(30);
constexpr std::uint32_t kHeaderLimit = 8 * 1024;
constexpr int kSocketSendBuffer = 64 * 1024;
constexpr std::uint64_t kBodyLimit = 1024;

// Datagrams end to end in one buffer, and whom each is from or for.
class Batch {
  public:
    struct Entry {
        Endpoint peer;
        std::size_t at = 0, size = 0;
    };
    void add(const Endpoint& peer, std::span<const std::uint8_t> datagram) {
        entries_.push_back({peer, bytes_.size(), datagram.size()});
        bytes_.insert(bytes_.end(), datagram.begin(), datagram.end());
    }
    void append(const Batch& other) {
        for (const Entry& e : other.entries_)
            add(e.peer, other.bytes(e));
    }
    std::span<const std::uint8_t> bytes(const Entry& e) const {
        return {bytes_.data() + e.at, e.size};
    }
    const std::vector<Entry>& entries() const { return entries_; }
    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    void clear() {  // the capacity stays, for the next
        entries_.clear();
        bytes_.clear();
    }
    void swap(Batch& other) noexcept {
        entries_.swap(other.entries_);
        bytes_.swap(other.bytes_);
    }

  private:
    std::vector<Entry> entries_;
    std::vector<std::uint8_t> bytes_;
};

Endpoint to_endpoint(const tcp::endpoint& e) {
    Endpoint out;
    const net::ip::address a = e.address();
    out.address = a.is_v4() ? net::ip::make_address_v6(net::ip::v4_mapped, a.to_v4()).to_bytes()
                            : a.to_v6().to_bytes();
    out.port = e.port();
    return out;
}

// Beast speaks boost::string_view; carom's own code std::string_view.
std::string_view std_view(beast::string_view s) {
    return {s.data(), s.size()};
}
beast::string_view beast_view(std::string_view s) {
    return {s.data(), s.size()};
}

// A WebSocket link as the door's registry holds it.
class Link {
  public:
    virtual ~Link() = default;
    virtual void deliver(std::span<const std::uint8_t> bytes) = 0;
    virtual void shut() = 0;
};

}  // namespace

struct WebDoor::Impl {
    Impl(const WebDoorConfig& c, const Metrics& m) : config(c), metrics(m) {}

    void listen();
    void accept();
    void on_accepted(tcp::socket socket);
    // A message from a link, for the tick (dropped and counted when too many wait).
    void take(const Endpoint& from, net::const_buffer data);
    // The messages the tick handed over, to their links.
    void deliver();
    std::string health(unsigned& status) const;

    const WebDoorConfig config;
    const Metrics& metrics;
    WebDoorStats stats;
    std::optional<ssl::context> tls;

    // Door thread only: connections open, in all and per address.
    std::size_t open = 0;
    std::map<std::array<std::uint8_t, 16>, std::size_t> open_per_ip;

    // Both threads. Waiting: the messages taken and not yet drained, in the
    // inbox or in `draining`.
    std::mutex inbox_mutex;
    Batch inbox;
    std::size_t waiting = 0;
    std::map<std::uint32_t, std::size_t> waiting_per_link;
    std::function<void()> wake;
    std::mutex handed_mutex;
    Batch handed;
    bool delivery_posted = false;
    std::atomic<std::uint64_t> send_errors{0};

    // Tick thread only: the inbox's messages being drained (from `drained`
    // on), and the links of those drained in a call; sent since the last
    // hand-over; handed over since the last start_delivery().
    Batch draining;
    std::size_t drained = 0;
    std::vector<std::uint32_t> drained_links;
    Batch outbox;
    bool undelivered = false;

    // Door thread only: the batch being delivered.
    Batch delivering;

    // Declared after all they use and before all that use it: sockets go
    // before their io_context, handlers' links before the counters they touch.
    net::io_context io{1};
    std::optional<tcp::acceptor> acceptor;
    std::uint16_t port = 0;
    std::map<std::uint32_t, std::shared_ptr<Link>> links;
    std::uint32_t next_link = 1;
    std::thread thread;
};

namespace {

// One open connection's share of the limits, for as long as it lives.
class Admission {
  public:
    Admission(WebDoor::Impl& door, const std::array<std::uint8_t, 16>& ip) : door_(&door), ip_(ip) {
        ++door_->open;
        ++door_->open_per_ip[ip_];
    }
    Admission(Admission&& other) noexcept
        : door_(std::exchange(other.door_, nullptr)), ip_(other.ip_) {}
    Admission(const Admission&) = delete;
    Admission& operator=(const Admission&) = delete;
    Admission& operator=(Admission&&) = delete;
    ~Admission() {
        if (door_ == nullptr) return;
        --door_->open;
        if (const auto it = door_->open_per_ip.find(ip_);
            it != door_->open_per_ip.end() && --it->second == 0)
            door_->open_per_ip.erase(it);
    }

  private:
    WebDoor::Impl* door_;
    std::array<std::uint8_t, 16> ip_;
};

template <class Stream>
constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

template <class Stream>
class WsLink final : public Link, public std::enable_shared_from_this<WsLink<Stream>> {
  public:
    WsLink(WebDoor::Impl& door, Stream&& stream, Endpoint peer, Admission admission)
        : door_(door), ws_(std::move(stream)), peer_(peer), admission_(std::move(admission)) {}

    void accept(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout{kHandshakeTime, kIdleTime, true});
        ws_.set_option(websocket::stream_base::decorator(
            [](websocket::response_type& res) { res.set(http::field::server, "carom"); }));
        ws_.read_message_max(protocol::kMaxDatagramBytes);
        ws_.binary(true);
        ws_.async_accept(request, [self = this->shared_from_this()](beast::error_code ec) {
            if (!ec) self->opened();
        });
    }

    void deliver(std::span<const std::uint8_t> bytes) override {
        if (closing_) return;
        if (queued_bytes_ + bytes.size() > door_.config.max_send_queue_bytes) {
            // It reads slower than the server sends: dropped, never waited for.
            ++door_.stats.ws_dropped_slow;
            spdlog::info("ws: {} dropped: {} bytes unsent (it does not read)", peer_.to_string(),
                         queued_bytes_);
            shut();
            return;
        }
        queued_bytes_ += bytes.size();
        queue_.emplace_back(bytes.begin(), bytes.end());
        if (!writing_) write();
    }

    void shut() override {
        closing_ = true;
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);  // pending reads and writes end
        finish();
    }

  private:
    void opened() {
        peer_.link = door_.next_link++;
        if (door_.next_link == 0) door_.next_link = 1;  // 0 is the UDP socket's
        door_.links[peer_.link] = this->shared_from_this();
        ++door_.stats.ws_opened;
        read();
    }

    void read() {
        ws_.async_read(buffer_, [self = this->shared_from_this()](
                                    beast::error_code ec, std::size_t n) { self->on_read(ec, n); });
    }

    void on_read(beast::error_code ec, std::size_t n) {
        if (ec) {
            if (ec == websocket::error::message_too_big) ++door_.stats.ws_refused_oversize;
            finish();
            return;
        }
        if (!ws_.got_binary()) {
            // The protocol is binary: a text message is another program's.
            ++door_.stats.ws_refused_text;
            closing_ = true;
            if (writing_) return shut();
            ws_.async_close(
                websocket::close_code::unknown_data,
                [self = this->shared_from_this()](beast::error_code) { self->finish(); });
            return;
        }
        door_.take(peer_, buffer_.data());
        buffer_.consume(n);
        read();
    }

    void write() {
        writing_ = true;
        ws_.async_write(net::buffer(queue_.front()),
                        [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                            self->on_write(ec, n);
                        });
    }

    void on_write(beast::error_code ec, std::size_t n) {
        writing_ = false;
        if (ec) return finish();
        ++door_.stats.ws_messages_out;
        door_.stats.ws_bytes_out += n;
        queued_bytes_ -= queue_.front().size();
        queue_.pop_front();
        if (!queue_.empty() && !closing_) write();
    }

    // Out of the registry: what the tick sends it from now on is counted as lost.
    void finish() {
        if (peer_.link == 0 || door_.links.erase(peer_.link) == 0) return;
        ++door_.stats.ws_closed;
    }

    WebDoor::Impl& door_;
    websocket::stream<Stream> ws_;
    beast::flat_buffer buffer_;
    Endpoint peer_;
    Admission admission_;
    std::deque<std::vector<std::uint8_t>> queue_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
};

std::string web_metrics(const WebDoorStats& s) {
    std::string out;
    const auto counter = [&out](const char* name, const char* help,
                                const std::atomic<std::uint64_t>& v) {
        out += fmt::format("# HELP {} {}\n# TYPE {} counter\n{} {}\n", name, help, name, name,
                           v.load());
    };
    counter("carom_web_requests_total", "HTTP requests served on the --http port.",
            s.http_requests);
    counter("carom_web_bad_requests_total",
            "HTTP requests refused: malformed, too large, not GET, or /ws without an upgrade.",
            s.http_bad_requests);
    counter("carom_web_not_found_total", "HTTP requests for nothing served.", s.http_not_found);
    counter("carom_web_refused_connections_total",
            "Connections closed at once: the door holds its most.", s.refused_connections);
    counter("carom_web_refused_per_ip_total",
            "Connections closed at once: their address holds its most.", s.refused_per_ip);
    counter("carom_web_tls_handshakes_failed_total", "TLS handshakes that failed.",
            s.tls_handshakes_failed);
    counter("carom_websockets_opened_total", "WebSocket links opened at /ws.", s.ws_opened);
    counter("carom_websockets_closed_total", "WebSocket links closed.", s.ws_closed);
    counter("carom_websockets_refused_origin_total",
            "WebSocket upgrades refused for their Origin (--ws-origin).", s.ws_refused_origin);
    counter("carom_websockets_refused_text_total",
            "WebSocket links closed for sending a text message (the protocol is binary).",
            s.ws_refused_text);
    counter("carom_websockets_refused_oversize_total",
            "WebSocket links closed for a message larger than a datagram.", s.ws_refused_oversize);
    counter("carom_websockets_dropped_slow_total",
            "WebSocket links dropped because they read slower than the server sends.",
            s.ws_dropped_slow);
    counter("carom_websocket_messages_received_total", "WebSocket messages in.", s.ws_messages_in);
    counter("carom_websocket_bytes_received_total", "WebSocket payload bytes in.", s.ws_bytes_in);
    counter("carom_websocket_messages_sent_total", "WebSocket messages out.", s.ws_messages_out);
    counter("carom_websocket_bytes_sent_total", "WebSocket payload bytes out.", s.ws_bytes_out);
    counter("carom_websocket_messages_dropped_total",
            "WebSocket messages dropped before the tick read them: too many waited.",
            s.ws_waiting_dropped);
    return out;
}

template <class Stream>
class HttpSession final : public std::enable_shared_from_this<HttpSession<Stream>> {
  public:
    HttpSession(WebDoor::Impl& door, Stream&& stream, Endpoint peer, Admission admission)
        : door_(door), stream_(std::move(stream)), peer_(peer), admission_(std::move(admission)) {}

    void start() {
        if constexpr (kTls<Stream>) {
            beast::get_lowest_layer(stream_).expires_after(kHandshakeTime);
            stream_.async_handshake(ssl::stream_base::server,
                                    [self = this->shared_from_this()](beast::error_code ec) {
                                        if (ec) {
                                            ++self->door_.stats.tls_handshakes_failed;
                                            return;
                                        }
                                        self->read();
                                    });
        } else {
            read();
        }
    }

  private:
    void read() {
        parser_.emplace();
        parser_->header_limit(kHeaderLimit);
        parser_->body_limit(kBodyLimit);
        beast::get_lowest_layer(stream_).expires_after(kRequestTime);
        http::async_read(stream_, buffer_, *parser_,
                         [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                             self->on_read(ec);
                         });
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::end_of_stream) return close();
        if (ec) {
            // A timeout or a reset ends it quietly; a request that breaks the
            // rules (too large, not HTTP) gets its answer.
            if (ec.category() == http::make_error_code(http::error::bad_target).category()) {
                ++door_.stats.http_bad_requests;
                respond_text(http::status::bad_request, "bad request: " + ec.message() + "\n", 11,
                             false);
            }
            return;
        }
        ++door_.stats.http_requests;
        http::request<http::string_body> request = parser_->release();
        if (websocket::is_upgrade(request)) return upgrade(std::move(request));
        route(request);
    }

    void route(const http::request<http::string_body>& request) {
        const unsigned version = request.version();
        const bool keep = request.keep_alive();
        if (request.method() != http::verb::get) {
            ++door_.stats.http_bad_requests;
            return respond_text(http::status::method_not_allowed, "only GET is served here\n",
                                version, keep);
        }
        const std::string_view path = target_path(std_view(request.target()));
        if (path == "/metrics") {
            return respond_text(http::status::ok,
                                door_.metrics.prometheus_text() + web_metrics(door_.stats), version,
                                keep, "text/plain; version=0.0.4; charset=utf-8");
        }
        if (path == "/healthz") {
            unsigned status = 200;
            std::string text = door_.health(status);
            return respond_text(static_cast<http::status>(status), std::move(text), version, keep);
        }
        if (path == "/ws") {
            ++door_.stats.http_bad_requests;
            return respond_text(http::status::upgrade_required,
                                "/ws is a WebSocket: the play page opens it\n", version, keep);
        }
        serve_file(path, std_view(request.target()), version, keep);
    }

    void serve_file(std::string_view path, std::string_view target, unsigned version, bool keep) {
        const std::optional<PageFile> page = page_file(target, door_.config.page_dir);
        if (!page) {
            ++door_.stats.http_not_found;
            return respond_text(http::status::not_found, "not found\n", version, keep);
        }
        http::file_body::value_type body;
        beast::error_code ec;
        body.open(page->file.c_str(), beast::file_mode::scan, ec);
        if (ec) {
            ++door_.stats.http_not_found;
            const std::string why =
                path == "/" ? "the play page is not installed here (" + page->file.string() +
                                  "): build it with `make web`, or give --web-dir\n"
                            : "not found\n";
            return respond_text(http::status::not_found, why, version, keep);
        }
        const std::uint64_t size = body.size();
        http::response<http::file_body> res{std::piecewise_construct,
                                            std::make_tuple(std::move(body)),
                                            std::make_tuple(http::status::ok, version)};
        res.set(http::field::server, "carom");
        res.set(http::field::content_type, beast_view(page->content_type));
        res.set(http::field::cache_control, "no-cache");
        res.content_length(size);
        res.keep_alive(keep);
        send(std::move(res));
    }

    void upgrade(http::request<http::string_body> request) {
        const unsigned version = request.version();
        if (target_path(std_view(request.target())) != "/ws") {
            ++door_.stats.http_not_found;
            return respond_text(http::status::not_found, "WebSockets are at /ws\n", version, false);
        }
        const std::string_view origin = std_view(request[http::field::origin]);
        if (!origin_allowed(origin, std_view(request[http::field::host]), kTls<Stream>,
                            door_.config.origins)) {
            ++door_.stats.ws_refused_origin;
            spdlog::info("ws: {} refused: origin '{}' is not allowed (--ws-origin)",
                         peer_.to_string(), std::string(origin));
            return respond_text(http::status::forbidden,
                                "this origin may not open /ws (see --ws-origin)\n", version, false);
        }
        beast::get_lowest_layer(stream_).expires_never();  // the link keeps its own time
        std::make_shared<WsLink<Stream>>(door_, std::move(stream_), peer_, std::move(admission_))
            ->accept(std::move(request));
    }

    void respond_text(http::status status, std::string text, unsigned version, bool keep,
                      std::string_view type = "text/plain; charset=utf-8") {
        http::response<http::string_body> res{status, version};
        res.set(http::field::server, "carom");
        res.set(http::field::content_type, beast_view(type));
        res.set(http::field::cache_control, "no-store");
        res.keep_alive(keep);
        res.body() = std::move(text);
        res.prepare_payload();
        send(std::move(res));
    }

    template <class Body>
    void send(http::response<Body>&& response) {
        auto res = std::make_shared<http::response<Body>>(std::move(response));
        http::async_write(
            stream_, *res,
            [self = this->shared_from_this(), res](beast::error_code ec, std::size_t) {
                if (ec) return;
                if (res->need_eof()) return self->close();
                self->read();
            });
    }

    void close() {
        beast::error_code ignored;
        if constexpr (kTls<Stream>) {
            beast::get_lowest_layer(stream_).expires_after(kHandshakeTime);
            stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
        } else {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        }
    }

    WebDoor::Impl& door_;
    Stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Endpoint peer_;
    Admission admission_;
};

}  // namespace

void WebDoor::Impl::listen() {
    const auto fail = [this](const std::string& why) {
        throw std::runtime_error(fmt::format("cannot listen for HTTP on {}:{}: {}",
                                             config.address.host, config.address.port, why));
    };
    beast::error_code ec;
    const net::ip::address address = net::ip::make_address(config.address.host, ec);
    if (ec) fail("not an IP address");
    const tcp::endpoint local(address, config.address.port);
    acceptor.emplace(io);
    acceptor->open(local.protocol(), ec);
    if (ec) fail(ec.message());
    // Restarts may reuse the port at once; a second server may not share it.
    acceptor->set_option(net::socket_base::reuse_address(true), ec);
    acceptor->bind(local, ec);
    if (ec) fail(ec.message());
    acceptor->listen(net::socket_base::max_listen_connections, ec);
    if (ec) fail(ec.message());
    port = acceptor->local_endpoint().port();
}

void WebDoor::Impl::accept() {
    acceptor->async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted) return;
        if (!ec) on_accepted(std::move(socket));
        accept();
    });
}

void WebDoor::Impl::on_accepted(tcp::socket socket) {
    beast::error_code ec;
    const tcp::endpoint remote = socket.remote_endpoint(ec);
    if (ec) return;
    const Endpoint peer = to_endpoint(remote);
    // Refused by closing at once: a flood of connections costs an accept each.
    if (open >= config.max_connections) {
        ++stats.refused_connections;
        return;
    }
    if (const auto it = open_per_ip.find(peer.address);
        it != open_per_ip.end() && it->second >= config.max_connections_per_ip) {
        ++stats.refused_per_ip;
        return;
    }
    socket.set_option(tcp::no_delay(true), ec);  // a datagram a message, sent at once
    // A fixed kernel buffer (no autotuning to megabytes): a peer that stops
    // reading shows in the door's own queue, which is bounded and counted.
    socket.set_option(net::socket_base::send_buffer_size(kSocketSendBuffer), ec);
    Admission admission(*this, peer.address);
    if (tls) {
        std::make_shared<HttpSession<TlsStream>>(
            *this, TlsStream(PlainStream(std::move(socket)), *tls), peer, std::move(admission))
            ->start();
    } else {
        std::make_shared<HttpSession<PlainStream>>(*this, PlainStream(std::move(socket)), peer,
                                                   std::move(admission))
            ->start();
    }
}

void WebDoor::Impl::take(const Endpoint& from, net::const_buffer data) {
    ++stats.ws_messages_in;
    stats.ws_bytes_in += data.size();
    {
        const std::lock_guard lock(inbox_mutex);
        std::size_t& of_link = waiting_per_link[from.link];
        if (waiting >= config.max_waiting || of_link >= config.max_waiting_per_link) {
            ++stats.ws_waiting_dropped;
            if (of_link == 0) waiting_per_link.erase(from.link);
            return;
        }
        const bool first = inbox.empty();
        inbox.add(from, {static_cast<const std::uint8_t*>(data.data()), data.size()});
        ++waiting;
        ++of_link;
        // Under the lock: once set_wake(nullptr) returns, nothing calls the old one.
        if (first && wake) wake();
    }
}

void WebDoor::Impl::deliver() {
    delivering.clear();
    {
        const std::lock_guard lock(handed_mutex);
        delivering.swap(handed);
        delivery_posted = false;
    }
    for (const Batch::Entry& e : delivering.entries()) {
        const auto it = links.find(e.peer.link);
        if (it == links.end()) {
            ++send_errors;  // the link closed; its session times out
            continue;
        }
        const std::shared_ptr<Link> link = it->second;  // deliver() may unregister it
        link->deliver(delivering.bytes(e));
    }
}

std::string WebDoor::Impl::health(unsigned& status) const {
    const double since = metrics.seconds_since_tick();
    if (metrics.draining()) {
        status = 503;
        return "draining: shutting down\n";
    }
    if (metrics.stalled()) {
        status = 503;
        return fmt::format("stalled: no tick for {:.1f} s (limit {:.1f} s)\n", since,
                           metrics.stall_after().count());
    }
    status = 200;
    return fmt::format("ok: last tick {:.3f} s ago\n", since);
}

Result<HttpAddress> parse_http_address(const std::string& text) {
    const auto refused = [&] {
        return fail("'" + text + "' is not ADDR:PORT (127.0.0.1:9100, [::1]:9100)");
    };
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return refused();
    std::string host = text.substr(0, colon);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return refused();
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        return refused();  // an IPv6 address needs brackets
    }
    const std::string port_text = text.substr(colon + 1);
    unsigned port = 0;
    const auto [end, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535 ||
        port_text.empty())
        return refused();
    return HttpAddress{host, static_cast<std::uint16_t>(port)};
}

WebDoor::WebDoor(const WebDoorConfig& config, const Metrics& metrics)
    : impl_(std::make_unique<Impl>(config, metrics)) {
    if (config.tls_cert.empty() != config.tls_key.empty())
        throw std::runtime_error("--tls-cert and --tls-key go together");
    if (!config.tls_cert.empty()) {
        impl_->tls.emplace(ssl::context::tls_server);
        impl_->tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                                ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                                ssl::context::no_tlsv1_1);
        beast::error_code ec;
        impl_->tls->use_certificate_chain_file(config.tls_cert.string(), ec);
        if (ec)
            throw std::runtime_error(
                fmt::format("--tls-cert {}: {}", config.tls_cert.string(), ec.message()));
        impl_->tls->use_private_key_file(config.tls_key.string(), ssl::context::pem, ec);
        if (ec)
            throw std::runtime_error(
                fmt::format("--tls-key {}: {}", config.tls_key.string(), ec.message()));
    }
    impl_->listen();
    impl_->accept();
    impl_->thread = std::thread([impl = impl_.get()] { impl->io.run(); });
}

WebDoor::~WebDoor() {
    impl_->io.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
    // Sockets close before the io_context they belong to goes.
    for (auto& [id, link] : std::map(impl_->links))
        link->shut();
    impl_->links.clear();
    impl_->acceptor.reset();
}

std::uint16_t WebDoor::port() const {
    return impl_->port;
}
bool WebDoor::tls() const {
    return impl_->tls.has_value();
}
const WebDoorStats& WebDoor::stats() const {
    return impl_->stats;
}
std::uint64_t WebDoor::send_errors() const {
    return impl_->send_errors.load();
}

std::string WebDoor::prometheus_text() const {
    return web_metrics(impl_->stats);
}

std::size_t WebDoor::drain(std::size_t budget, const Handler& handler) {
    Impl& d = *impl_;
    d.drained_links.clear();
    while (d.drained_links.size() < budget) {
        if (d.drained == d.draining.size()) {
            // All handed: the inbox's messages, for the emptied batch.
            d.draining.clear();
            d.drained = 0;
            const std::lock_guard lock(d.inbox_mutex);
            d.draining.swap(d.inbox);
            if (d.draining.empty()) break;
        }
        const Batch::Entry& e = d.draining.entries()[d.drained++];
        d.drained_links.push_back(e.peer.link);
        handler(e.peer, d.draining.bytes(e));
    }
    if (!d.drained_links.empty()) {
        const std::lock_guard lock(d.inbox_mutex);
        d.waiting -= d.drained_links.size();
        for (const std::uint32_t link : d.drained_links) {
            if (const auto it = d.waiting_per_link.find(link);
                it != d.waiting_per_link.end() && --it->second == 0)
                d.waiting_per_link.erase(it);
        }
    }
    return d.drained_links.size();
}

void WebDoor::send(const Endpoint& to, std::span<const std::uint8_t> datagram) {
    impl_->outbox.add(to, datagram);
}

void WebDoor::hand_over() {
    Impl& d = *impl_;
    if (d.outbox.empty()) return;
    {
        const std::lock_guard lock(d.handed_mutex);
        if (d.handed.empty()) {
            d.handed.swap(d.outbox);  // the outbox takes its emptied buffers
        } else {
            d.handed.append(d.outbox);
        }
    }
    d.outbox.clear();
    d.undelivered = true;
}

void WebDoor::start_delivery() {
    Impl& d = *impl_;
    if (!std::exchange(d.undelivered, false)) return;
    {
        const std::lock_guard lock(d.handed_mutex);
        // Posted already, and not yet run: that delivery takes these too.
        if (std::exchange(d.delivery_posted, true)) return;
    }
    net::post(d.io, [impl = impl_.get()] { impl->deliver(); });
}

void WebDoor::set_wake(std::function<void()> wake) {
    const std::lock_guard lock(impl_->inbox_mutex);
    impl_->wake = std::move(wake);
}

}  // namespace carom::server
