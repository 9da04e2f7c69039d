#pragma once
// The terminal as the replay viewer uses it (ncursesw): grids out, keys in.
// Constructing it takes the terminal over; destroying it (on every exit path,
// exceptions included) gives it back as it was.
#include <cstdint>
#include <optional>

#include "carom/render/grid.hpp"
#include "viewer_keys.hpp"

namespace carom::tool {

class ViewerTerminal {
  public:
    // Throws std::runtime_error when stdin/stdout is not a terminal.
    explicit ViewerTerminal(bool force_ascii);
    ~ViewerTerminal();
    ViewerTerminal(const ViewerTerminal&) = delete;
    ViewerTerminal& operator=(const ViewerTerminal&) = delete;

    bool utf8() const { return utf8_; }
    int width() const;
    int height() const;
    void draw(const render::Grid& grid);
    std::optional<ViewKey> key();

  private:
    bool utf8_ = false;
    bool colour_ = false;
};

}  // namespace carom::tool
