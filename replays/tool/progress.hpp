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

  private:
    std::string label_;
    bool enabled_;
    bool drawn_ = false;
};

}  // namespace carom::tool
