#include "common/fetch/robots.h"

#include <chrono>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::fetch {
namespace {

constexpr char kToken[] = "VertexMonitor";

struct Case {
  std::string robots;
  std::string path;
  bool allowed;
};

void ExpectCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const Robots robots = Robots::Parse(c.robots, kToken);
    EXPECT_EQ(robots.Allowed(c.path), c.allowed) << "path " << c.path << " against robots.txt:\n"
                                                 << c.robots;
  }
}

TEST(RobotsTest, PrefixMatchAndEmptyFile) {
  const std::string r = "User-agent: *\nDisallow: /private\n";
  ExpectCases({
      {r, "/private", false},
      {r, "/private/x", false},
      {r, "/privately", false},
      {r, "/public", true},
      {r, "/", true},
      {"", "/anything", true},
      {"User-agent: *\nDisallow:\n", "/anything", true},  // empty Disallow
      {"User-agent: *\nDisallow: /\n", "/", false},
      {"User-agent: *\nDisallow: /\n", "/robots.txt", true},  // always allowed
  });
}

TEST(RobotsTest, Wildcards) {
  const std::string r = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/cache\n";
  ExpectCases({
      {r, "/a/b.pdf", false},
      {r, "/b.pdf", false},
      {r, "/b.pdf?x=1", true},
      {r, "/b.pdfx", true},
      {r, "/tmp/cache", false},
      {r, "/tmp123/cache/x", false},
      {r, "/tmp123/x/cache", false},
      {r, "/tmpcach", true},
      {"User-agent: *\nDisallow: /*\n", "/x", false},
      {"User-agent: *\nDisallow: *\n", "/x", false},
      {"User-agent: *\nDisallow: /a*b*c\n", "/aXbYc", false},
      {"User-agent: *\nDisallow: /a*b*c\n", "/aXcYb", true},
      {"User-agent: *\nDisallow: /a**$\n", "/a", false},
      {"User-agent: *\nDisallow: /?*q=\n", "/?a=1&q=2", false},
  });
}

TEST(RobotsTest, DollarAnchorsOnlyAtTheEnd) {
  ExpectCases({
      {"User-agent: *\nDisallow: /exact$\n", "/exact", false},
      {"User-agent: *\nDisallow: /exact$\n", "/exact/", true},
      {"User-agent: *\nDisallow: /exact$\n", "/exactly", true},
      {"User-agent: *\nDisallow: /$\n", "/", false},
      {"User-agent: *\nDisallow: /$\n", "/page", true},
      {"User-agent: *\nDisallow: /a$b\n", "/a$b/c", false},  // '$' inside is literal
  });
}

TEST(RobotsTest, LongestMatchWinsAllowWinsTies) {
  const std::string r = "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n";
  ExpectCases({
      {r, "/a/x", false},
      {r, "/a/b", true},
      {r, "/a/b/x", true},
      {r, "/a/b/c", false},
      {"User-agent: *\nAllow: /a\nDisallow: /\n", "/a", true},
      {"User-agent: *\nAllow: /a\nDisallow: /\n", "/b", false},
      {"User-agent: *\nDisallow: /page\nAllow: /page\n", "/page", true},  // tie
      {"User-agent: *\nAllow: /page\nDisallow: /page\n", "/page", true},  // either order
      {"User-agent: *\nAllow: /p*\nDisallow: /pa\n", "/page", true},      // same length
      {"User-agent: *\nAllow: /p\nDisallow: /pa\n", "/page", false},
  });
}

TEST(RobotsTest, SelectsTheGroupOfOurProductTokenElseStar) {
  const std::string r =
      "User-agent: *\nDisallow: /\n\n"
      "User-agent: OtherBot\nDisallow: /other\n\n"
      "User-agent: vertexmonitor\nDisallow: /private\n";
  ExpectCases({
      {r, "/public", true},
      {r, "/private/x", false},
      {r, "/other", true},
  });
  EXPECT_FALSE(Robots::Parse(r, "SomeoneElse").Allowed("/public"));
  EXPECT_FALSE(Robots::Parse(r, "OtherBot").Allowed("/other"));
  EXPECT_TRUE(Robots::Parse(r, "OtherBot").Allowed("/public"));

  // A group naming us without rules allows all, whatever `*` says.
  ExpectCases({{"User-agent: *\nDisallow: /\nUser-agent: VertexMonitor\n", "/x", true}});
  // A version after the token, and several agents sharing one group.
  ExpectCases({
      {"User-agent: VertexMonitor/2.0\nDisallow: /v\n", "/v", false},
      {"User-agent: a\nUser-agent: VERTEXMONITOR\nUser-agent: b\nDisallow: /g\n", "/g", false},
      {"User-agent: VertexMonitorPlus\nDisallow: /\n", "/x", true},  // not our token
  });
  // Groups naming us are merged.
  const std::string merged =
      "User-agent: VertexMonitor\nDisallow: /one\n"
      "User-agent: *\nDisallow: /star\n"
      "User-agent: VertexMonitor\nDisallow: /two\n";
  ExpectCases({{merged, "/one", false}, {merged, "/two", false}, {merged, "/star", true}});
  EXPECT_EQ(Robots::Parse(merged, kToken).rule_count(), 2u);
}

TEST(RobotsTest, LineEndsCommentsAndGarbage) {
  ExpectCases({
      {"User-agent: *\r\nDisallow: /crlf\r\n", "/crlf", false},
      {"User-agent: *\rDisallow: /cr\r", "/cr", false},
      {"\xEF\xBB\xBFUser-agent: *\nDisallow: /bom\n", "/bom", false},
      {"User-agent: * # everyone\nDisallow: /x # not /y\n", "/x", false},
      {"User-agent: * # everyone\nDisallow: /x # not /y\n", "/y", true},
      {"# User-agent: *\n# Disallow: /\n", "/", true},
      {"Disallow: /before-any-agent\nUser-agent: *\n", "/before-any-agent", true},
      {"<html><body>Not a robots file</body></html>\n", "/", true},
      {"User-agent: *\nthis is garbage\nDisallow /nocolon\nDisallow: /yes\n", "/nocolon", true},
      {"User-agent: *\nthis is garbage\nDisallow /nocolon\nDisallow: /yes\n", "/yes", false},
      {"USER-AGENT: *\nDISALLOW: /upper\n", "/upper", false},
      {"User-agent: *\nCrawl-delay: 10\nSitemap: http://x/s.xml\nDisallow: /cd\n", "/cd", false},
      {"   User-agent  :  *  \n\t Disallow :\t/ws  \n", "/ws", false},
  });
}

TEST(RobotsTest, PercentEncodingComparesNormalized) {
  ExpectCases({
      {"User-agent: *\nDisallow: /caf%c3%a9\n", "/caf\xC3\xA9", false},
      {"User-agent: *\nDisallow: /caf\xC3\xA9\n", "/caf%C3%A9", false},
      {"User-agent: *\nDisallow: /caf%C3%A9\n", "/caf%c3%a9/x", false},
  });
}

TEST(RobotsTest, ReadsOnlyTheFirst500KiB) {
  std::string text = "User-agent: *\nDisallow: /early\n";
  int i = 0;
  while (text.size() < Robots::kMaxBytes) text += "Disallow: /filler-" + std::to_string(i++) + "\n";
  text += "Disallow: /late\n";
  while (text.size() < 2 * Robots::kMaxBytes) text += "# padding padding padding\n";
  const auto start = std::chrono::steady_clock::now();
  const Robots robots = Robots::Parse(text, kToken);
  EXPECT_FALSE(robots.Allowed("/early"));
  EXPECT_FALSE(robots.Allowed("/filler-7"));
  EXPECT_TRUE(robots.Allowed("/late"));
  EXPECT_TRUE(robots.Allowed("/other"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(5));  // generous: it takes milliseconds
}

TEST(RobotsTest, AdversarialWildcardsStayFast) {
  std::string pattern = "/";
  for (int i = 0; i < 200; ++i) pattern += "*a";
  pattern += "b$";
  const std::string path = "/" + std::string(8000, 'a');
  const Robots robots = Robots::Parse("User-agent: *\nDisallow: " + pattern + "\n", kToken);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(robots.Allowed(path));
  EXPECT_FALSE(robots.Allowed(path + "b"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(RobotsTest, AllowAllAndDisallowAll) {
  EXPECT_TRUE(Robots::AllowAll().Allowed("/x"));
  EXPECT_FALSE(Robots::DisallowAll().Allowed("/x"));
  EXPECT_FALSE(Robots::DisallowAll().Allowed("/"));
  EXPECT_TRUE(Robots::DisallowAll().Allowed("/robots.txt"));
}

TEST(RobotsTest, ProductToken) {
  EXPECT_EQ(ProductToken("VertexMonitor/1.0 (+https://x; y)"), "VertexMonitor");
  EXPECT_EQ(ProductToken("  Some_Bot-2 rest"), "Some_Bot-2");
  EXPECT_EQ(ProductToken("/1.0"), "");
  EXPECT_EQ(ProductToken(""), "");
}

}  // namespace
}  // namespace vertex::fetch
