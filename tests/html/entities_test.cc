#include "common/html/entities.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace vertex::html {
namespace {

struct DecodeCase {
  std::string_view input;
  std::string_view want;
};

TEST(DecodeHtmlEntities, Table) {
  const DecodeCase kCases[] = {
      // No references.
      {"", ""},
      {"plain text", "plain text"},
      {"caf\xC3\xA9 \xFF", "caf\xC3\xA9 \xFF"},  // other bytes copied, even invalid UTF-8
      // Named, HTML 4 set plus &apos;.
      {"AT&amp;T", "AT&T"},
      {"&lt;b&gt;", "<b>"},
      {"&quot;x&quot; &apos;y&apos;", "\"x\" 'y'"},
      {"caf&eacute; &Eacute;", "caf\xC3\xA9 \xC3\x89"},
      {"1&ndash;2&hellip;&euro;", "1\342\200\2232\342\200\246\342\202\254"},
      {"a&nbsp;b", "a\302\240b"},
      // Numeric.
      {"&#233;&#xE9;&#XE9;&#x00e9;", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"},
      {"&#x1F600;", "\xF0\x9F\x98\x80"},
      {"&#65;&#066;", "AB"},
      // Invalid code points become U+FFFD.
      {"&#0;", "\xEF\xBF\xBD"},
      {"&#xD800;", "\xEF\xBF\xBD"},
      {"&#x110000;", "\xEF\xBF\xBD"},
      {"&#99999999999999999999999;", "\xEF\xBF\xBD"},
      // 0x80-0x9F as Windows-1252; undefined ones kept.
      {"&#146;&#150;&#128;", "\xE2\x80\x99\xE2\x80\x93\xE2\x82\xAC"},
      {"&#x81;", "\xC2\x81"},
      // Legacy forms without ';'.
      {"&amp", "&"},
      {"Tom &amp Jerry", "Tom & Jerry"},
      {"&lt&gt&quot", "<>\""},
      {"a&nbsp b", "a\xC2\xA0 b"},
      {"&ampfoo", "&ampfoo"},
      {"&nbspx", "&nbspx"},
      // Everything else without ';' stays.
      {"&eacute caf", "&eacute caf"},
      {"&#233 x", "&#233 x"},
      {"&#x", "&#x"},
      // Malformed or unknown: left as is.
      {"&", "&"},
      {"a & b", "a & b"},
      {"&&amp;", "&&"},
      {"&;", "&;"},
      {"&#;&#x;&#xG;", "&#;&#x;&#xG;"},
      {"&foo;", "&foo;"},
      {"&AMP;", "&AMP;"},  // names are case-sensitive; HTML 4 has no &AMP;
      {"&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;", "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;"},
      // One pass only.
      {"&amp;lt;", "&lt;"},
      {"&amp;#65;", "&#65;"},
  };
  for (const DecodeCase& c : kCases) {
    EXPECT_EQ(DecodeHtmlEntities(c.input), c.want) << "input: \"" << c.input << "\"";
  }
}

}  // namespace
}  // namespace vertex::html
