#include "carom/render/grid.hpp"

#include <algorithm>

namespace carom::render {

Grid::Grid(int width, int height)
    : width_(std::max(width, 0)),
      height_(std::max(height, 0)),
      cells_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_)) {}

Cell Grid::at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return {};
    return cells_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
                  static_cast<std::size_t>(x)];
}

void Grid::set(int x, int y, Cell cell) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    cells_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
           static_cast<std::size_t>(x)] = cell;
}

int Grid::put(int x, int y, std::string_view text, Ink ink) {
    int used = 0;
    for (const char c : text) {
        if (x + used >= width_) break;
        set(x + used, y, {static_cast<char32_t>(static_cast<unsigned char>(c)), ink});
        ++used;
    }
    return used;
}

void append_utf8(std::string& out, char32_t c) {
    const auto byte = [&out](std::uint32_t b) { out.push_back(static_cast<char>(b)); };
    const auto u = static_cast<std::uint32_t>(c);
    if (u < 0x80) {
        byte(u);
    } else if (u < 0x800) {
        byte(0xC0 | (u >> 6));
        byte(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
        byte(0xE0 | (u >> 12));
        byte(0x80 | ((u >> 6) & 0x3F));
        byte(0x80 | (u & 0x3F));
    } else {
        byte(0xF0 | (u >> 18));
        byte(0x80 | ((u >> 12) & 0x3F));
        byte(0x80 | ((u >> 6) & 0x3F));
        byte(0x80 | (u & 0x3F));
    }
}

std::string Grid::row_utf8(int y) const {
    std::string out;
    for (int x = 0; x < width_; ++x)
        append_utf8(out, at(x, y).ch);
    return out;
}

std::string Grid::text() const {
    std::string out;
    for (int y = 0; y < height_; ++y) {
        out += row_utf8(y);
        out += '\n';
    }
    return out;
}

std::string Grid::ink_map() const {
    static constexpr char kLetters[] = ".WlrLRPOta";
    static_assert(sizeof kLetters - 1 == static_cast<std::size_t>(Ink::count_));
    std::string out;
    for (int y = 0; y < height_; ++y) {
        for (int x = 0; x < width_; ++x)
            out += kLetters[static_cast<std::size_t>(at(x, y).ink)];
        out += '\n';
    }
    return out;
}

}  // namespace carom::render
