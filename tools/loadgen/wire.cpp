#include "wire.hpp"

#include <array>

#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "carom/client/host_port.hpp"

namespace carom::loadgen {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using udp = asio::ip::udp;

namespace {

constexpr std::size_t kMaxMessage = 2048;  // larger than any valid datagram
constexpr auto kConnectRetry = std::chrono::milliseconds(200);

class UdpWire final : public Wire {
  public:
    UdpWire(asio::io_context& io, const udp::endpoint& server,
            std::optional<asio::ip::address> source)
        : socket_(io, server.protocol()) {
        if (source) socket_.bind({*source, 0});
        socket_.connect(server);
    }

    void start(Receiver receiver) override {
        receiver_ = std::move(receiver);
        receive();
    }

    void send(std::span<const std::uint8_t> bytes) override {
        if (!socket_.is_open()) return;
        boost::system::error_code ec;
        socket_.send(asio::buffer(bytes.data(), bytes.size()), 0, ec);
        if (ec) ++errors_;
    }

    void close() override {
        boost::system::error_code ignored;
        socket_.close(ignored);
    }

    std::uint64_t errors() const override { return errors_; }

  private:
    void receive() {
        socket_.async_receive(asio::buffer(buffer_),
                              [this](boost::system::error_code ec, std::size_t n) {
                                  if (ec == asio::error::operation_aborted || !socket_.is_open())
                                      return;
                                  // ICMP port unreachable surfaces here on a connected socket:
                                  // the server is not up (yet); the handshake retries on its own.
                                  if (ec) {
                                      ++errors_;
                                  } else {
                                      receiver_({buffer_.data(), n});
                                  }
                                  receive();
                              });
    }

    udp::socket socket_;
    Receiver receiver_;
    alignas(8) std::array<std::uint8_t, kMaxMessage> buffer_{};
    std::uint64_t errors_ = 0;
};

// The play page's link: TCP_NODELAY, binary messages, one datagram each.
class WsWire final : public Wire {
  public:
    WsWire(asio::io_context& io, const tcp::endpoint& server,
           std::optional<asio::ip::address> source, WsUrl url)
        : io_(io), server_(server), source_(source), url_(std::move(url)), retry_(io) {}

    void start(Receiver receiver) override {
        receiver_ = std::move(receiver);
        connect();
    }

    void send(std::span<const std::uint8_t> bytes) override {
        if (closing_) return;
        queue_.emplace_back(bytes.begin(), bytes.end());
        if (open_ && !writing_) write();
    }

    void close() override {
        if (closing_) return;
        closing_ = true;
        retry_.cancel();
        if (!open_) return shut();
        if (!writing_) close_link();  // else once the queue is out
    }

    std::uint64_t errors() const override { return errors_; }

  private:
    void connect() {
        ws_.emplace(io_);
        tcp::socket& socket = beast::get_lowest_layer(*ws_).socket();
        boost::system::error_code failed;
        socket.open(server_.protocol(), failed);
        if (!failed && source_) socket.bind({*source_, 0}, failed);
        if (failed) return retry();
        beast::get_lowest_layer(*ws_).async_connect(server_, [this](boost::system::error_code ec) {
            if (closing_) return;
            if (ec) return retry();
            boost::system::error_code ignored;
            beast::get_lowest_layer(*ws_).socket().set_option(tcp::no_delay(true), ignored);
            ws_->set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
            ws_->read_message_max(kMaxMessage);
            ws_->binary(true);
            ws_->async_handshake(url_.authority(), url_.path, [this](boost::system::error_code e) {
                if (closing_) return;
                if (e) return retry();
                opened();
            });
        });
    }

    // Refused (the server not up yet, or the upgrade refused): again, a little later.
    void retry() {
        ++errors_;
        shut();
        retry_.expires_after(kConnectRetry);
        retry_.async_wait([this](boost::system::error_code ec) {
            if (!ec && !closing_) connect();
        });
    }

    void opened() {
        open_ = true;
        read();
        if (!queue_.empty()) write();
    }

    void read() {
        ws_->async_read(buffer_, [this](boost::system::error_code ec, std::size_t n) {
            if (ec) {
                // Closed by either side: a session over a broken link is lost,
                // as a page's is.
                if (!closing_) ++errors_;
                open_ = false;
                return;
            }
            if (!closing_) receiver_({static_cast<const std::uint8_t*>(buffer_.data().data()), n});
            buffer_.consume(n);
            read();
        });
    }

    void write() {
        writing_ = true;
        ws_->async_write(asio::buffer(queue_.front()),
                         [this](boost::system::error_code ec, std::size_t) {
                             writing_ = false;
                             if (ec) {
                                 ++errors_;
                                 open_ = false;
                                 queue_.clear();
                                 return;
                             }
                             queue_.pop_front();
                             if (!queue_.empty()) return write();
                             if (closing_) close_link();
                         });
    }

    void close_link() {
        if (!open_) return shut();
        ws_->async_close(websocket::close_code::normal,
                         [this](boost::system::error_code) { shut(); });
    }

    void shut() {
        if (!ws_) return;
        boost::system::error_code ignored;
        beast::get_lowest_layer(*ws_).socket().close(ignored);
    }

    asio::io_context& io_;
    tcp::endpoint server_;
    std::optional<asio::ip::address> source_;
    WsUrl url_;
    asio::steady_timer retry_;
    std::optional<websocket::stream<beast::tcp_stream>> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::vector<std::uint8_t>> queue_;
    Receiver receiver_;
    bool open_ = false;
    bool writing_ = false;
    bool closing_ = false;
    std::uint64_t errors_ = 0;
};

}  // namespace

std::unique_ptr<Wire> udp_wire(asio::io_context& io, const udp::endpoint& server,
                               std::optional<asio::ip::address> source) {
    return std::make_unique<UdpWire>(io, server, source);
}

std::string WsUrl::authority() const {
    const std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return h + ":" + std::to_string(port);
}

Result<WsUrl> parse_ws_url(const std::string& text) {
    constexpr std::string_view scheme = "ws://";
    const auto refused = [&](const std::string& why) {
        return fail("'" + text + "' " + why +
                    " (the form: ws://HOST:PORT/PATH, ws://127.0.0.1:8080/ws)");
    };
    if (text.starts_with("wss://")) return refused("is wss://: the load generator speaks no TLS");
    if (!text.starts_with(scheme)) return refused("is not a ws:// URL");
    const std::string rest = text.substr(scheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos) return refused("has no path");
    auto authority = client::parse_host_port(std::string_view(rest).substr(0, slash));
    if (!authority) return refused(authority.error().message);
    return WsUrl{authority->host, authority->port, rest.substr(slash)};
}

std::unique_ptr<Wire> ws_wire(asio::io_context& io, const tcp::endpoint& server,
                              std::optional<asio::ip::address> source, WsUrl url) {
    return std::make_unique<WsWire>(io, server, source, std::move(url));
}

}  // namespace carom::loadgen
