#include "carom/play/room_list.hpp"

#include <algorithm>

#include "carom/client/room_text.hpp"

namespace carom::play {

void RoomPicker::set_status(protocol::ServerStatus status) {
    status_ = std::move(status);
    if (!status_.rooms.empty())
        selected_ = std::min<std::uint32_t>(selected_,
                                            static_cast<std::uint32_t>(status_.rooms.size() - 1));
}

RoomPicker::Action RoomPicker::on_key(const terminal::Key& key) {
    using Kind = terminal::Key::Kind;
    const auto last =
        static_cast<std::uint32_t>(std::max<std::size_t>(status_.rooms.size(), 1) - 1);
    switch (key.kind) {
        case Kind::up:
            selected_ = selected_ > 0 ? selected_ - 1 : 0;
            return Action::none;
        case Kind::down:
            selected_ = std::min(selected_ + 1, last);
            return Action::none;
        case Kind::home:
            selected_ = 0;
            return Action::none;
        case Kind::end:
            selected_ = last;
            return Action::none;
        case Kind::character:
            switch (key.ch) {
                case '\n':
                case '\r':
                    return status_.rooms.empty() ? Action::none : Action::join;
                case 's':
                case 'S':
                    return status_.rooms.empty() ? Action::none : Action::spectate;
                case 'r':
                case 'R':
                    return Action::refresh;
                case 'q':
                case 'Q':
                    return Action::quit;
                default:
                    return Action::none;
            }
        default:
            return Action::none;
    }
}

RoomChoice RoomPicker::choice() const {
    RoomChoice c;
    if (selected_ < status_.rooms.size()) c.room = status_.rooms[selected_].room;
    return c;
}

render::Grid RoomPicker::draw(int width, int height, const std::string& server,
                              const std::string& note) const {
    render::Grid grid(width, height);
    grid.put(0, 0, client::room_title(status_, server), render::Ink::text);
    grid.put(2, 2, client::room_header(), render::Ink::text);
    // Rows between the header and the help; the selected one always shown.
    const int first_row = 3;
    const int rows = std::max(height - first_row - 3, 1);
    const int top = std::max(0, static_cast<int>(selected_) - rows + 1);
    for (int i = 0; i < rows && top + i < static_cast<int>(status_.rooms.size()); ++i) {
        const auto index = static_cast<std::size_t>(top + i);
        const bool chosen = index == selected_;
        grid.put(0, first_row + i, chosen ? ">" : " ", render::Ink::alert);
        grid.put(2, first_row + i, client::room_row(status_.rooms[index]),
                 chosen ? render::Ink::own : render::Ink::text);
    }
    grid.put(0, height - 2, note, render::Ink::alert);
    grid.put(0, height - 1, "Up/Down choose  Enter play  s spectate  r refresh  q quit",
             render::Ink::text);
    return grid;
}

}  // namespace carom::play
