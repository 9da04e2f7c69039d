// carom-server-reenact: plays a replay recorded by carom-server over UDP again
// through the same server logic over the in-process link, with the same
// joins, leaves and inputs at the same ticks, and checks that the new replay
// is the same file, byte for byte. The transport must not change the match.
//   carom-server-reenact REPLAY MAPS_DIR OUT_DIR
// Exit 0 identical, 1 different, 2 unusable input.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include "carom/replay/reader.hpp"
#include "link.hpp"

using namespace carom;
using namespace carom::server;

namespace {

std::vector<char> bytes_of(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: carom-server-reenact REPLAY MAPS_DIR OUT_DIR\n");
        return 2;
    }
    spdlog::set_level(spdlog::level::warn);
    auto read = replay::read_replay(argv[1]);
    if (!read.ok()) {
        std::fprintf(stderr, "%s: unreadable\n", argv[1]);
        return 2;
    }
    const replay::Replay recorded = *std::move(read);
    if (!recorded.footer) {
        std::fprintf(stderr, "%s: no footer\n", argv[1]);
        return 2;
    }

    ServerConfig config;
    config.maps = {std::filesystem::path(argv[2]) / (recorded.header.map.name + ".json")};
    config.replay_dir = argv[3];
    config.timeout_s = 1e6;
    for (const auto& p : recorded.header.players)
        config.bots = config.bots || p.bot;
    test::Link link;
    InlineDiskWork disk;
    Server server(config, link, disk, test::fixed_cookies(), "reenact");

    // Inputs as the server applied them: each slot holds its input until the
    // next change; a join or leave resets it to idle.
    std::vector<game::Input> held(server.room(0).slot_count());
    std::map<game::Slot, std::unique_ptr<test::ScriptedClient>> clients;  // humans by slot
    std::map<game::Slot, std::uint32_t> sequence;
    std::uint16_t next_port = 1000;
    auto roster = recorded.roster.begin();
    auto inputs = recorded.inputs.begin();

    for (std::uint64_t tick = 1; tick <= recorded.footer->final_tick; ++tick) {
        for (; roster != recorded.roster.end() && roster->tick == tick; ++roster) {
            held[roster->slot] = game::Input{};
            if (roster->join && !roster->bot) {
                auto c = std::make_unique<test::ScriptedClient>(server, link,
                                                                test::endpoint(1, next_port++));
                const net::Packet* reply = c->connect(roster->name);
                if (reply == nullptr || reply->body_type() != net::Body::Accepted ||
                    reply->body_as_Accepted()->slot() != static_cast<std::int32_t>(roster->slot)) {
                    std::printf("tick %llu: %s did not get slot %u again\n",
                                static_cast<unsigned long long>(tick), roster->name.c_str(),
                                roster->slot);
                    return 1;
                }
                clients[roster->slot] = std::move(c);
            } else if (!roster->join && clients.count(roster->slot) != 0) {
                clients[roster->slot]->disconnect();
                clients.erase(roster->slot);
            }
        }
        for (; inputs != recorded.inputs.end() && inputs->tick == tick; ++inputs)
            held[inputs->slot] = inputs->input;
        for (auto& [slot, c] : clients) {
            c->input(++sequence[slot], held[slot].bits());
            c->clear();
        }
        server.tick();
    }
    // The clients leave after the last tick, in the order they did over
    // UDP, and the room, empty, sleeps (its replay flushed).
    for (; roster != recorded.roster.end(); ++roster) {
        if (roster->join || clients.count(roster->slot) == 0) continue;
        clients[roster->slot]->disconnect();
        clients.erase(roster->slot);
    }
    server.tick();
    const auto summaries = server.shutdown();
    if (summaries.size() != 1) {
        std::printf("expected one match, the server recorded %zu\n", summaries.size());
        return 1;
    }
    const auto original = bytes_of(argv[1]);
    const auto again = bytes_of(summaries.front().replay);
    if (original != again) {
        std::printf(
            "DIFFERENT: %zu bytes over UDP, %zu in process (final hash %016llx vs %016llx)\n",
            original.size(), again.size(),
            static_cast<unsigned long long>(recorded.footer->final_hash),
            static_cast<unsigned long long>(summaries.front().footer.final_hash));
        return 1;
    }
    std::printf("IDENTICAL: %zu bytes, %llu ticks, final hash %016llx\n", again.size(),
                static_cast<unsigned long long>(recorded.footer->final_tick),
                static_cast<unsigned long long>(recorded.footer->final_hash));
    return 0;
}
