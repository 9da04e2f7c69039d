#pragma once
// A WebSocket client for the tests of carom-server's /ws, as a browser would
// be one: Boost.Beast over a TCP (or TLS) connection to 127.0.0.1, binary
// messages, an Origin header when given. Messages are read in the
// background of receive(), which waits at most the time it is given.
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace carom::test {

struct WsOptions {
    std::string origin;            // empty: no Origin header (not a browser)
    bool tls = false;              // wss://, trusting any certificate
    int receive_buffer_bytes = 0;  // 0: the system's; small: a reader that falls behind
};

class WsClient {
  public:
    explicit WsClient(std::uint16_t port, WsOptions options = {}) : options_(std::move(options)) {
        namespace net = boost::asio;
        using tcp = net::ip::tcp;
        tcp::socket socket(io_);
        if (options_.receive_buffer_bytes > 0) {
            socket.open(tcp::v4());
            socket.set_option(net::socket_base::receive_buffer_size(options_.receive_buffer_bytes));
        }
        socket.connect({net::ip::make_address("127.0.0.1"), port});
        const std::string host = "127.0.0.1:" + std::to_string(port);
        if (options_.tls) {
            tls_context_.set_verify_mode(net::ssl::verify_none);
            auto& ws = stream_.emplace<Tls>(boost::beast::ssl_stream<boost::beast::tcp_stream>(
                boost::beast::tcp_stream(std::move(socket)), tls_context_));
            ws.next_layer().handshake(net::ssl::stream_base::client);
            handshake(ws, host);
        } else {
            auto& ws = stream_.emplace<Plain>(boost::beast::tcp_stream(std::move(socket)));
            handshake(ws, host);
        }
    }

    void send(std::span<const std::uint8_t> bytes) {
        visit([&](auto& ws) {
            ws.binary(true);
            ws.write(boost::asio::buffer(bytes.data(), bytes.size()));
        });
    }
    void send_text(const std::string& text) {
        visit([&](auto& ws) {
            ws.text(true);
            ws.write(boost::asio::buffer(text));
        });
    }

    // The next message, waiting at most `wait`; nullopt when none came (or
    // the link closed: see closed()).
    std::optional<std::vector<std::uint8_t>> receive(std::chrono::milliseconds wait) {
        const auto deadline = std::chrono::steady_clock::now() + wait;
        if (!reading_ && !closed_) read_next();
        while (received_.empty() && !closed_ && std::chrono::steady_clock::now() < deadline)
            io_.run_one_until(deadline);
        if (received_.empty()) return std::nullopt;
        auto m = std::move(received_.front());
        received_.pop_front();
        return m;
    }

    bool closed() const { return closed_; }
    // The close code the server sent (0: none, or the link just broke).
    unsigned close_code() const { return close_code_; }
    std::string close_error() const { return close_error_; }

  private:
    using Plain = boost::beast::websocket::stream<boost::beast::tcp_stream>;
    using Tls = boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;

    template <class F>
    void visit(F&& f) {
        std::visit(
            [&](auto& ws) {
                if constexpr (!std::is_same_v<std::decay_t<decltype(ws)>, std::monostate>) f(ws);
            },
            stream_);
    }

    template <class Ws>
    void handshake(Ws& ws, const std::string& host) {
        const std::string origin = options_.origin;
        ws.set_option(boost::beast::websocket::stream_base::decorator(
            [origin](boost::beast::websocket::request_type& req) {
                if (!origin.empty()) req.set(boost::beast::http::field::origin, origin);
            }));
        ws.handshake(host, "/ws");
    }

    void read_next() {
        reading_ = true;
        visit([&](auto& ws) {
            ws.async_read(buffer_, [this, &ws](boost::beast::error_code ec, std::size_t n) {
                reading_ = false;
                if (ec) {
                    closed_ = true;
                    close_code_ = ws.reason().code;
                    close_error_ = ec.message();
                    return;
                }
                const auto* data = static_cast<const std::uint8_t*>(buffer_.data().data());
                received_.emplace_back(data, data + n);
                buffer_.consume(n);
                read_next();
            });
        });
    }

    WsOptions options_;
    boost::asio::io_context io_;
    boost::asio::ssl::context tls_context_{boost::asio::ssl::context::tls_client};
    std::variant<std::monostate, Plain, Tls> stream_;
    boost::beast::flat_buffer buffer_;
    std::deque<std::vector<std::uint8_t>> received_;
    bool reading_ = false;
    bool closed_ = false;
    unsigned close_code_ = 0;
    std::string close_error_;
};

}  // namespace carom::test
