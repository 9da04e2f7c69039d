#pragma once
// Sends junk datagrams (junk.hpp) from a socket of its own, spread evenly
// over the run, so the server's refusals can be watched under load.
#include <cstdint>
#include <random>
#include <utility>  // Boost 1.74's Asio uses std::exchange without it, under C++20

#include <boost/asio.hpp>

namespace carom::loadgen {

class GarbageSender {
  public:
    GarbageSender(boost::asio::io_context& io, const boost::asio::ip::udp::endpoint& server,
                  std::uint64_t count, std::uint64_t run_ms, std::uint64_t seed);

    // Sends every datagram due by `now_ms`.
    void tick(std::uint64_t now_ms);
    std::uint64_t sent() const { return sent_; }

  private:
    boost::asio::ip::udp::socket socket_;
    std::uint64_t count_;
    std::uint64_t run_ms_;
    std::mt19937_64 rng_;
    std::uint64_t sent_ = 0;
};

}  // namespace carom::loadgen
