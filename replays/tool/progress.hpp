#pragma once
// A progress bar on stderr, only when stderr is a terminal (none when piped).
#include <cstdint>
#include <string>

namespace carom::tool {

class Progress {
  public:
    explicit Progress(std::string label);
    ~Progress();
    void update(std::uint64_t done, std::uint64_t total);
    // Erases the bar (if drawn), so the next line starts on a clean line.
    void clear();

  private:
    std::string label_;
    bool enabled_;
    bool drawn_ = false;
};

}  // namespace carom::tool
