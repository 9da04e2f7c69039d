#include "garbage_sender.hpp"

#include "junk.hpp"

namespace carom::loadgen {

GarbageSender::GarbageSender(boost::asio::io_context& io,
                             const boost::asio::ip::udp::endpoint& server, std::uint64_t count,
                             std::uint64_t run_ms, std::uint64_t seed)
    : socket_(io, server.protocol()), count_(count), run_ms_(run_ms), rng_(seed) {
    socket_.connect(server);
}

void GarbageSender::tick(std::uint64_t now_ms) {
    // Datagram i is due at (i + 1) / (count + 1) of the run.
    while (sent_ < count_ && now_ms * (count_ + 1) >= (sent_ + 1) * run_ms_) {
        const std::vector<std::uint8_t> junk = make_junk(rng_, sent_);
        boost::system::error_code ignored;  // the server being down is not our concern here
        socket_.send(boost::asio::buffer(junk), 0, ignored);
        ++sent_;
    }
}

}  // namespace carom::loadgen
