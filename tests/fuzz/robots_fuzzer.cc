// Fuzz target: robots.txt parsing and matching (fetch/robots.h).
//
// Input: line 1 is a User-Agent header value and a path to ask about,
// separated by a tab (no tab: the whole line is the path, the agent is
// "VertexMonitor/1.0"); the rest is the robots.txt.
//
// Checked beyond "no crash": "/robots.txt" is always allowed; the product
// token is a prefix of the User-Agent (after leading spaces and tabs) made of letters, digits, '_' and '-';
// parsing the same text twice gives the same answers (a pure function).
#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "common/fetch/robots.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  auto [first, text] = fuzz::CutLine(fuzz::AsView(data, size));
  std::string_view agent = "VertexMonitor/1.0";
  std::string_view path = first;
  if (const size_t tab = first.find('\t'); tab != std::string_view::npos) {
    agent = first.substr(0, tab);
    path = first.substr(tab + 1);
  }
  const std::string token = fetch::ProductToken(agent);
  const size_t blanks = std::min(agent.find_first_not_of(" \t"), agent.size());
  fuzz::Check(agent.substr(blanks, token.size()) == token, "ProductToken is not a prefix of the agent");
  for (char c : token) {
    fuzz::Check(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-',
                "ProductToken kept '" + std::string(1, c) + "'");
  }

  const fetch::Robots robots = fetch::Robots::Parse(text, token);
  const fetch::Robots again = fetch::Robots::Parse(text, token);
  fuzz::Check(robots.Allowed("/robots.txt"), "/robots.txt is disallowed");
  fuzz::Check(robots.rule_count() == again.rule_count(), "Parse is not deterministic");
  const std::string_view paths[] = {path, "/", "/a/b?x=1", "/index.html", "/%7Euser/"};
  for (std::string_view p : paths) {
    fuzz::Check(robots.Allowed(p) == again.Allowed(p), "Allowed is not deterministic");
  }
  return 0;
}
