// carom-flood: a hostile sender for measuring the server under a flood, on
// loopback only. As fast as it can (or at --rate) for --seconds it sends, in
// batches of sendmmsg, the attacks chosen with --attacks (attacks.hpp), kinds
// taking turns. By default the original mix: forged ConnectResponses (half
// padded) and junk. --abuse adds three sessions of its own in --abuse-room:
// one sends 1000 inputs a second with replayed old inputs, sequence numbers
// far ahead and behind and acks of ticks never sent mixed in; one never
// acknowledges a tick; one acknowledges each full state once and then says
// it holds none (both must get full states at a bounded rate). The report
// (one JSON line) says what was sent and what the abusers saw. With
// --victims (players' ADDRESS:PORT) and root, it forges packets from those
// players to the server, and from the server to those players (at the
// server's tick, which a spectator session of its own reads).
// It only ever sends to 127.0.0.0/8.
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "abuser.hpp"
#include "attacks.hpp"
#include "carom/cli/cli.hpp"
#include "carom/result.hpp"
#include "clock.hpp"
#include "flood_sockets.hpp"
#include "server_forgeries.hpp"

namespace {

using namespace carom;
using namespace carom::loadgen;
using Bytes = std::vector<std::uint8_t>;
using Datagrams = std::vector<std::span<const std::uint8_t>>;

constexpr std::size_t kPool = 512;   // datagrams made up front per kind
constexpr std::size_t kPorts = 128;  // many-ports: source ports used
constexpr std::size_t kLargestUdp = 65507;
constexpr std::uint32_t kStatusFrom = 0x7F00'0002;  // 127.0.0.2

struct Options {
    std::uint16_t port = 0;
    double seconds = 5.0;
    std::uint64_t seed = 1;
    std::uint32_t junk_percent = 50;
    std::vector<std::string> attack_names;
    std::vector<std::string> victims;  // players' 127.x.y.z:PORT
    bool abuse = false;
    std::int32_t abuse_room = 1;
    double rate = 0.0;
};

void add_options(CLI::App& app, Options& o) {
    app.add_option("--port", o.port, "The server's UDP port on 127.0.0.1")->required();
    app.add_option("--seconds", o.seconds, "How long to flood (at most 600)")
        ->check(carom::cli::finite(0.001, 600))
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the forged packets")->capture_default_str();
    app.add_option("--junk-percent", o.junk_percent,
                   "Without --attacks: share of junk, the rest forged responses")
        ->check(carom::cli::finite(0, 100))
        ->capture_default_str();
    app.add_option("--attacks", o.attack_names,
                   "Kinds, taking turns: junk, every-size, bit-flips, forged-cookies, "
                   "wrong-versions, wrong-ids, many-ports, forged-source, status-queries, "
                   "server-updates, server-packets, or all")
        ->delimiter(',');
    app.add_option("--victims", o.victims,
                   "forged-source, server-*: 127.x.y.z:PORT of the players to impersonate "
                   "and to attack")
        ->delimiter(',');
    app.add_flag("--abuse", o.abuse, "Three abusive sessions of the flooder's own (see above)");
    app.add_option("--abuse-room", o.abuse_room, "The room the abusers join")
        ->capture_default_str();
    app.add_option("--rate", o.rate, "Datagrams per second (0: as fast as it can)")
        ->capture_default_str();
}

// The kinds named by --attacks, in order ("all": every one).
Result<std::vector<Attack>> parse_attacks(const std::vector<std::string>& names) {
    std::vector<Attack> attacks;
    for (const std::string& name : names) {
        if (name == "all") {
            for (std::size_t i = 0; i < static_cast<std::size_t>(Attack::count_); ++i)
                attacks.push_back(static_cast<Attack>(i));
            continue;
        }
        Attack a{};
        if (!parse_attack(name, a)) return fail("--attacks: unknown kind '" + name + "'");
        attacks.push_back(a);
    }
    return attacks;
}

// The "127.x.y.z:PORT" victims.
Result<std::vector<LoopbackAddress>> parse_victims(const std::vector<std::string>& victims) {
    std::vector<LoopbackAddress> out;
    for (const std::string& v : victims) {
        const auto a = parse_loopback(v);
        if (!a) return fail("--victims: '" + v + "' is not 127.x.y.z:PORT");
        out.push_back(*a);
    }
    return out;
}

bool has(const std::vector<Attack>& attacks, Attack a) {
    return std::find(attacks.begin(), attacks.end(), a) != attacks.end();
}

// The kinds sent through the raw socket, with a victim's address on one end.
bool forged(Attack a) {
    return a == Attack::forged_source || a == Attack::server_updates || a == Attack::server_packets;
}
bool as_server(Attack a) {
    return a == Attack::server_updates || a == Attack::server_packets;
}

// What the flood sends and how, made up front so that the loop only sends.
class Flood {
  public:
    Flood(const Options& o, std::vector<Attack> attacks, std::vector<LoopbackAddress> victims)
        : o_(o), attacks_(std::move(attacks)), victims_(std::move(victims)), rng_(o.seed) {}
    ~Flood() {
        if (fd_ >= 0) ::close(fd_);
        if (status_fd_ >= 0) ::close(status_fd_);
        for (const int f : port_fds_)
            ::close(f);
    }

    // Sockets, datagram pools and the abusive sessions; false when the
    // server's port cannot be reached.
    bool prepare() {
        fd_ = loopback_socket(o_.port);
        if (fd_ < 0) return false;
        open_extra_sockets();
        make_pools();
        if (o_.abuse) connect_abusers();
        return true;
    }

    void run() {
        const double end_s = o_.seconds;
        std::size_t turn = 0;
        while (seconds() < end_s) {
            const bool throttled =
                o_.rate > 0.0 && static_cast<double>(sent_) >= o_.rate * seconds();
            if (throttled) {
                ::usleep(200);
            } else if (!mix_.empty()) {
                Datagrams batch;
                for (std::size_t i = 0; i < kFloodBatch; ++i)
                    batch.emplace_back(mix_[(next_ + i) % mix_.size()]);
                count(send_batch(fd_, batch), batch);
            } else if (!attacks_.empty()) {
                send_turn(attacks_[turn++ % attacks_.size()]);
            }
            if (o_.abuse) {
                drive_abusers();
                if (attacks_.empty() && mix_.empty()) ::usleep(500);
            }
        }
    }

    // One JSON line: what was sent, by kind, and what the abusers saw.
    nlohmann::ordered_json report() {
        nlohmann::ordered_json r;
        r["sent"] = sent_;
        r["bytes"] = bytes_;
        r["seconds"] = o_.seconds;
        nlohmann::ordered_json by_kind = nlohmann::ordered_json::object();
        for (const auto& [a, n] : sent_by_)
            by_kind[std::string(to_string(a))] = n;
        r["by_kind"] = by_kind;
        if (o_.abuse) {
            storm_->drain(clock_);
            silent_->drain(clock_);
            once_->drain(clock_);
            r["abuse"] = {{"storm_inputs", storm_->inputs_sent},
                          {"storm_connected", storm_->connected()},
                          {"noack_full", silent_->full},
                          {"noack_delta", silent_->delta},
                          {"noack_connected", silent_->connected()},
                          {"ackonce_full", once_->full},
                          {"ackonce_full_bytes", once_->full_bytes},
                          {"ackonce_connected", once_->connected()}};
        }
        return r;
    }

  private:
    double seconds() const { return static_cast<double>(clock_.now_us()) / 1e6; }

    void open_extra_sockets() {
        if (std::any_of(attacks_.begin(), attacks_.end(), forged)) {
            forged_ = victims_.empty() ? nullptr : ForgedSender::open();
            if (!forged_) {
                std::fprintf(
                    stderr, "carom-flood: forged-source and server-* skipped: %s\n",
                    victims_.empty() ? "no --victims" : "a raw socket needs root (CAP_NET_RAW)");
                std::erase_if(attacks_, forged);
            }
        }
        if (std::any_of(attacks_.begin(), attacks_.end(), as_server)) {
            // The server's tick, as any session of the attacker's shows it.
            spy_.emplace(o_.port, 0, "spy", true);
            if (!spy_->connect(clock_)) {
                std::fprintf(stderr, "carom-flood: server-* skipped: the spy was not accepted\n");
                std::erase_if(attacks_, as_server);
            }
        }
        // Status queries from an address of their own: the replies a second
        // an address gets are shared by every handshake kind, and the
        // forged responses from 127.0.0.1 would take them all.
        if (has(attacks_, Attack::status_queries))
            status_fd_ = loopback_socket(o_.port, kStatusFrom);
        if (has(attacks_, Attack::many_ports))
            for (std::size_t i = 0; i < kPorts; ++i)
                if (const int f = loopback_socket(o_.port); f >= 0) port_fds_.push_back(f);
    }

    void make_pools() {
        for (const Attack a : attacks_)
            if (a != Attack::every_size && !as_server(a))
                for (std::size_t i = 0; i < kPool; ++i)
                    pools_[a].push_back(make_attack(a, rng_, i));
        if (attacks_.empty() && !o_.abuse)
            for (std::size_t i = 0; i < 8 * kPool; ++i)
                mix_.push_back(rng_() % 100 < o_.junk_percent
                                   ? make_attack(Attack::junk, rng_, i)
                                   : make_attack(Attack::forged_cookies, rng_, i));
        big_.resize(kLargestUdp);
        for (auto& b : big_)
            b = static_cast<std::uint8_t>(rng_());
    }

    void connect_abusers() {
        storm_.emplace(o_.port, o_.abuse_room, "storm");
        silent_.emplace(o_.port, o_.abuse_room, "noack");
        once_.emplace(o_.port, o_.abuse_room, "ackonce");
        storm_joined_ = storm_->connect(clock_);
        silent_joined_ = silent_->connect(clock_);
        once_joined_ = once_->connect(clock_);
        std::fprintf(stderr, "carom-flood: %s\n",
                     storm_joined_ && silent_joined_ && once_joined_
                         ? "abusive sessions connected"
                         : "an abusive session was not accepted");
    }

    std::size_t count(std::size_t n, const Datagrams& batch) {
        for (std::size_t i = 0; i < n; ++i)
            bytes_ += batch[i].size();
        sent_ += n, next_ += n;
        return n;
    }

    // One turn of attack `a`: a batch of its datagrams.
    void send_turn(Attack a) {
        std::size_t n = 0;
        if (a == Attack::every_size) {
            Datagrams batch;
            for (std::size_t i = 0; i < 8; ++i)  // large ones: fewer per turn
                batch.emplace_back(big_.data(), (sizes_ + i) % (kLargestUdp + 1));
            n = count(send_batch(fd_, batch), batch);
            sizes_ += n;
        } else if (a == Attack::many_ports) {
            const std::vector<Bytes>& pool = pools_[a];
            for (std::size_t i = 0; i < kFloodBatch && !port_fds_.empty(); ++i) {
                const Bytes& d = pool[(next_ + i) % pool.size()];
                if (::send(port_fds_[(next_ + i) % port_fds_.size()], d.data(), d.size(), 0) > 0)
                    ++n, bytes_ += d.size();
            }
            sent_ += n, next_ += n;
        } else if (a == Attack::forged_source) {
            const std::vector<Bytes>& pool = pools_[a];
            for (std::size_t i = 0; i < kFloodBatch; ++i) {
                const Bytes& d = pool[(next_ + i) % pool.size()];
                if (forged_->send(victims_[(next_ + i) % victims_.size()], server(), d))
                    ++n, bytes_ += d.size();
            }
            sent_ += n, next_ += n;
        } else if (as_server(a)) {
            spy_->drain(clock_);
            if (const std::uint64_t ms = clock_.now_ms(); ms >= spy_ack_ms_) {
                spy_->send_input(1, 0, spy_->newest_tick);  // an ack: the session stays
                spy_ack_ms_ = ms + 100;
            }
            for (std::size_t i = 0; i < kFloodBatch; ++i) {
                const Bytes d = a == Attack::server_packets
                                    ? forged_server_packet(rng_, spy_->newest_tick)
                                    : forged_update(rng_, forged_tick());
                if (forged_->send(server(), victims_[(next_ + i) % victims_.size()], d))
                    ++n, bytes_ += d.size();
            }
            sent_ += n, next_ += n;
        } else {
            const std::vector<Bytes>& pool = pools_[a];
            Datagrams batch;
            for (std::size_t i = 0; i < kFloodBatch; ++i)
                batch.emplace_back(pool[(next_ + i) % pool.size()]);
            const int fd = a == Attack::status_queries && status_fd_ >= 0 ? status_fd_ : fd_;
            n = count(send_batch(fd, batch), batch);
        }
        sent_by_[a] += n;
    }

    LoopbackAddress server() const { return {0x7F00'0001, o_.port}; }

    // The server's tick or a few after it; one in four far ahead (up to 30 000 ticks).
    std::uint64_t forged_tick() {
        const std::uint64_t tick = spy_->newest_tick;
        return rng_() % 4 == 0 ? tick + 100 + rng_() % 30'000 : tick + rng_() % 3;
    }

    // The storm: 1000 inputs a second, each acking its newest tick; every
    // 50th replays old inputs, jumps far ahead or behind, or acks the future.
    // The silent one: 60 inputs a second that never ack a tick. The last:
    // 60 a second that ack the newest tick once a full state came, else none.
    void drive_abusers() {
        const std::uint64_t ms = clock_.now_ms();
        if (storm_joined_) {
            storm_->drain(clock_);
            for (; storm_next_ms_ <= ms; ++storm_next_ms_) {
                switch (storm_->inputs_sent % 200) {
                    case 50:
                        storm_->send_input(1, 8, storm_->newest_tick);  // replayed old inputs
                        break;
                    case 100:
                        storm_->send_input(storm_seq_ + (1u << 31), 8, storm_->newest_tick);
                        break;
                    case 150:
                        storm_->send_input(storm_seq_ - 100'000, 8, storm_->newest_tick);
                        break;
                    case 199:
                        storm_->send_input(storm_seq_, 1, storm_->newest_tick + 1'000'000);
                        break;
                    default:
                        storm_->send_input(storm_seq_++, 8, storm_->newest_tick);
                }
            }
        }
        if (silent_joined_) {
            silent_->drain(clock_);
            for (; silent_next_ms_ <= ms; silent_next_ms_ += 16)
                silent_->send_input(silent_seq_++, 8, 0);
        }
        if (once_joined_) {
            once_->drain(clock_);
            for (; once_next_ms_ <= ms; once_next_ms_ += 16) {
                const bool fresh = once_->full != once_acked_;  // a full state came: ack it
                once_acked_ = once_->full;
                once_->send_input(once_seq_++, 8, fresh ? once_->newest_tick : 0);
            }
        }
    }

    const Options& o_;
    std::vector<Attack> attacks_;
    std::vector<LoopbackAddress> victims_;
    std::mt19937_64 rng_;
    RunClock clock_;
    int fd_ = -1;
    int status_fd_ = -1;  // status-queries: from kStatusFrom
    std::vector<int> port_fds_;
    std::unique_ptr<ForgedSender> forged_;
    std::map<Attack, std::vector<Bytes>> pools_;
    std::vector<Bytes> mix_;  // the default: junk and forged responses
    Bytes big_;
    std::optional<Abuser> storm_, silent_;
    std::optional<Abuser> spy_;  // a spectator: the server's tick
    std::uint64_t spy_ack_ms_ = 0;
    std::optional<Abuser> once_;
    bool storm_joined_ = false, silent_joined_ = false, once_joined_ = false;
    std::uint64_t storm_next_ms_ = 0, silent_next_ms_ = 0, once_next_ms_ = 0, once_acked_ = 0;
    std::uint32_t storm_seq_ = 1, silent_seq_ = 1, once_seq_ = 1;
    std::map<Attack, std::uint64_t> sent_by_;
    std::uint64_t sent_ = 0, bytes_ = 0, next_ = 0, sizes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"carom-flood: floods a carom-server on 127.0.0.1 with hostile datagrams"};
    add_options(app, o);
    carom::cli::add_version(app);
    if (const auto exit = carom::cli::parse(app, argc, argv)) return *exit;
    auto attacks = parse_attacks(o.attack_names);
    if (!attacks) return carom::cli::usage_error(app, attacks.error().message);
    auto victims = parse_victims(o.victims);
    if (!victims) return carom::cli::usage_error(app, victims.error().message);
    Flood flood(o, std::move(*attacks), std::move(*victims));
    if (!flood.prepare()) return 1;
    flood.run();
    std::printf("%s\n", flood.report().dump().c_str());
    return 0;
}
