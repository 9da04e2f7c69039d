#pragma once
// A server's rooms as the status query lists them: a table for
// `carom-client --list`, JSON for scripts (`--json`), and the screen the
// interactive client opens on to choose a room (arrows, Enter, s, r, q).
#include <cstdint>
#include <optional>
#include <string>

#include "carom/protocol/status.hpp"
#include "carom/render/grid.hpp"
#include "carom/terminal/terminal.hpp"

namespace carom::play {

// One line a room under a header line, columns aligned; `server` is the
// address as the user gave it.
std::string room_table(const protocol::ServerStatus& status, const std::string& server);
// {"server": ..., "name": ..., "rooms": [{"room": 0, "map": ..., ...}]}
std::string room_json(const protocol::ServerStatus& status, const std::string& server);

// What the user chose on the room screen.
struct RoomChoice {
    std::uint32_t room = 0;
    bool spectate = false;
};

// The room screen's state: the list, the selected row, and what a key does.
class RoomPicker {
  public:
    enum class Action : std::uint8_t { none, join, spectate, refresh, quit };

    explicit RoomPicker(protocol::ServerStatus status) : status_(std::move(status)) {}
    void set_status(protocol::ServerStatus status);
    Action on_key(const terminal::Key& key);
    RoomChoice choice() const;
    // The screen: title, the rooms (the selected one marked and inked), help; `note` under it.
    render::Grid draw(int width, int height, const std::string& server,
                      const std::string& note) const;

  private:
    protocol::ServerStatus status_;
    std::uint32_t selected_ = 0;
};

}  // namespace carom::play
