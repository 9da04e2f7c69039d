#pragma once
// For each list of the carom map ("walls", "posts"...), the stadium's object
// behind each entry, so that a problem the carom map's check finds can be
// told in the stadium's terms.
#include <map>
#include <string>
#include <vector>

namespace carom::stadium::detail {

class MapSources {
  public:
    // The next entry of `list` came from `source` ("segments[5]").
    void add(const char* list, std::string source) { sources_[list].push_back(std::move(source)); }

    // `problem` ("walls[3].b: ...") with the stadium's objects it names
    // after it: "... (walls[3] is the stadium's segments[5])".
    std::string in_stadium_terms(const std::string& problem) const;

  private:
    std::map<std::string, std::vector<std::string>> sources_;
};

}  // namespace carom::stadium::detail
