#include "common/extract/xslt_export.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/extract/json_export.h"
#include "common/html/xpath.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"

namespace vertex::extract {
namespace {

// ---- ends-with(a, b) -> XPath 1.0 ----

constexpr std::string_view kEndsWith = "ends-with";
constexpr int kMaxEndsWithDepth = 8;

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// An ASCII XML name without prefix (attribute names the rule reads).
bool IsXmlName(const std::string& s) {
  if (s.empty() || !(absl::ascii_isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// A half-open range of the XPath.
struct Span {
  size_t begin, end;
};

// Rewrites the ends-with calls of one XPath: a recursive-descent pass over
// its literals, brackets and the calls' argument lists.
class EndsWithRewriter {
 public:
  explicit EndsWithRewriter(std::string_view xpath) : xpath_(xpath) {}

  // The rewritten text of xpath_[span].
  absl::StatusOr<std::string> Rewrite(Span span, int depth) const;

 private:
  absl::Status Error(size_t offset, std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("XPath '", std::string(xpath_),
                                                   "' cannot be rewritten for XSLT 1.0: ", std::string(what),
                                                   " at offset ", offset));
  }
  // The offset just past the string literal that starts at `i`.
  absl::StatusOr<size_t> SkipLiteral(size_t i, size_t end) const;
  // The offset of the '(' when an ends-with call starts at `i`, else npos.
  size_t CallParen(size_t i, size_t end) const;
  // The arguments of the call whose '(' is at `open` (trimmed); `*close`
  // gets the offset of its ')'.
  absl::StatusOr<std::vector<Span>> Arguments(size_t open, size_t end, size_t* close) const;
  Span Trim(size_t begin, size_t end) const;

  std::string_view xpath_;
};

absl::StatusOr<size_t> EndsWithRewriter::SkipLiteral(size_t i, size_t end) const {
  const size_t close = xpath_.find(xpath_[i], i + 1);
  if (close == std::string_view::npos || close >= end) return Error(i, "unterminated string literal");
  return close + 1;
}

size_t EndsWithRewriter::CallParen(size_t i, size_t end) const {
  if (xpath_.substr(i, kEndsWith.size()) != kEndsWith || i + kEndsWith.size() > end) return std::string_view::npos;
  if (i > 0 && IsNameChar(xpath_[i - 1])) return std::string_view::npos;
  size_t j = i + kEndsWith.size();
  while (j < end && IsSpace(xpath_[j])) ++j;
  return j < end && xpath_[j] == '(' ? j : std::string_view::npos;
}

Span EndsWithRewriter::Trim(size_t begin, size_t end) const {
  while (begin < end && IsSpace(xpath_[begin])) ++begin;
  while (end > begin && IsSpace(xpath_[end - 1])) --end;
  return {begin, end};
}

absl::StatusOr<std::vector<Span>> EndsWithRewriter::Arguments(size_t open, size_t end, size_t* close) const {
  std::vector<Span> args;
  size_t start = open + 1;
  int nesting = 0;
  for (size_t i = open + 1; i < end;) {
    const char c = xpath_[i];
    if (c == '\'' || c == '"') {
      absl::StatusOr<size_t> next = SkipLiteral(i, end);
      if (!next.ok()) return next.status();
      i = *next;
      continue;
    }
    if (c == ')' && nesting == 0) {
      args.push_back(Trim(start, i));
      *close = i;
      return args;
    }
    if (c == '(' || c == '[') ++nesting;
    if (c == ')' || c == ']') --nesting;
    if (c == ',' && nesting == 0) {
      args.push_back(Trim(start, i));
      start = i + 1;
    }
    ++i;
  }
  return Error(open, "unclosed ends-with(");
}

std::string EndsWithEquivalent(const std::string& a, const std::string& b) {
  return absl::StrCat("(substring(string(", a, "), string-length(string(", a, ")) - string-length(string(", b,
                      ")) + 1) = string(", b, "))");
}

absl::StatusOr<std::string> EndsWithRewriter::Rewrite(Span span, int depth) const {
  std::string out;
  for (size_t i = span.begin; i < span.end;) {
    if (xpath_[i] == '\'' || xpath_[i] == '"') {
      absl::StatusOr<size_t> next = SkipLiteral(i, span.end);
      if (!next.ok()) return next.status();
      out.append(xpath_.substr(i, *next - i));
      i = *next;
      continue;
    }
    const size_t open = CallParen(i, span.end);
    if (open == std::string_view::npos) {
      out.push_back(xpath_[i++]);
      continue;
    }
    if (depth >= kMaxEndsWithDepth) return Error(i, "ends-with calls nested too deep");
    size_t close = 0;
    absl::StatusOr<std::vector<Span>> args = Arguments(open, span.end, &close);
    if (!args.ok()) return args.status();
    if (args->size() != 2) return Error(i, absl::StrCat("ends-with with ", args->size(), " arguments, not 2"));
    std::string rewritten[2];
    for (int k = 0; k < 2; ++k) {
      if ((*args)[k].begin == (*args)[k].end) return Error(i, "ends-with with an empty argument");
      absl::StatusOr<std::string> arg = Rewrite((*args)[k], depth + 1);
      if (!arg.ok()) return arg.status();
      rewritten[k] = *std::move(arg);
    }
    out += EndsWithEquivalent(rewritten[0], rewritten[1]);
    i = close + 1;
  }
  return out;
}

// ---- XML text ----

// Whether XML 1.0 can hold `s`: valid UTF-8 without C0 controls other than
// tab, LF and CR, and without U+FFFE / U+FFFF.
bool IsXmlText(std::string_view s) {
  if (!util::IsValidUtf8(s)) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    if (c == 0xEF && s.substr(i + 1, 1) == "\xBF" && (s.substr(i + 2, 1) == "\xBE" || s.substr(i + 2, 1) == "\xBF")) {
      return false;
    }
  }
  return true;
}

// `s` escaped for a double-quoted XML attribute; with `avt`, for an
// attribute of a literal result element too (braces doubled).
std::string AttributeText(std::string_view s, bool avt) {
  static constexpr std::pair<char, const char*> kEscapes[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\t', "&#9;"}, {'\n', "&#10;"}, {'\r', "&#13;"}};
  std::string out;
  for (char c : s) {
    const auto* e = std::find_if(std::begin(kEscapes), std::end(kEscapes), [c](const auto& p) { return p.first == c; });
    if (e != std::end(kEscapes)) {
      out += e->second;
    } else if (avt && (c == '{' || c == '}')) {
      out.append(2, c);  // an attribute value template's literal brace
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// ---- the stylesheet ----

constexpr char kHead[] = R"xsl(<?xml version="1.0" encoding="UTF-8"?>
<!-- A Vertex extraction rule exported as XSLT 1.0. Apply it to a page's XHTML
     serialisation; common/extract/xslt_export.h describes the record. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="xml" encoding="UTF-8" indent="no"/>
<!-- The page's URL (xsltproc's stringparam option), given with URL values to resolve. -->
<xsl:param name="page-url" select="''"/>
<!-- Whitespace besides the space, as Vertex normalises text: tab, LF, CR, U+00A0. -->
<xsl:variable name="vertex-ws" select="'&#9;&#10;&#13;&#160;'"/>
<xsl:variable name="vertex-sp" select="'    '"/>
<xsl:template match="/">
)xsl";

constexpr char kTail[] = R"xsl(</xsl:template>
<!-- The words [$from, $from + $count) of $s (words separated by one space). -->
<xsl:template name="vertex-words">
  <xsl:param name="s"/>
  <xsl:param name="from"/>
  <xsl:param name="count"/>
  <xsl:choose>
    <xsl:when test="$from &lt; 1">
      <xsl:call-template name="vertex-take">
        <xsl:with-param name="s" select="$s"/>
        <xsl:with-param name="k" select="$count"/>
      </xsl:call-template>
    </xsl:when>
    <xsl:otherwise>
      <xsl:variable name="skipped">
        <xsl:call-template name="vertex-take">
          <xsl:with-param name="s" select="$s"/>
          <xsl:with-param name="k" select="$from"/>
        </xsl:call-template>
      </xsl:variable>
      <xsl:call-template name="vertex-take">
        <xsl:with-param name="s" select="substring($s, string-length($skipped) + 2)"/>
        <xsl:with-param name="k" select="$count"/>
      </xsl:call-template>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>
<!-- The first $k words of $s: halves $k, so recursion is log2($k) deep. -->
<xsl:template name="vertex-take">
  <xsl:param name="s"/>
  <xsl:param name="k"/>
  <xsl:choose>
    <xsl:when test="$k &lt; 1"/>
    <xsl:when test="$k = 1">
      <xsl:value-of select="substring-before(concat($s, ' '), ' ')"/>
    </xsl:when>
    <xsl:otherwise>
      <xsl:variable name="half" select="floor($k div 2)"/>
      <xsl:variable name="head">
        <xsl:call-template name="vertex-take">
          <xsl:with-param name="s" select="$s"/>
          <xsl:with-param name="k" select="$half"/>
        </xsl:call-template>
      </xsl:variable>
      <xsl:variable name="rest" select="substring($s, string-length($head) + 2)"/>
      <xsl:value-of select="$head"/>
      <xsl:if test="$rest != ''">
        <xsl:text> </xsl:text>
        <xsl:call-template name="vertex-take">
          <xsl:with-param name="s" select="$rest"/>
          <xsl:with-param name="k" select="$k - $half"/>
        </xsl:call-template>
      </xsl:if>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>
</xsl:stylesheet>
)xsl";

constexpr char kNormalized[] = "normalize-space(translate(., $vertex-ws, $vertex-sp))";

// The predicate keeping the nodes whose value is not empty: at least
// skip_start + skip_end + max(1, length) words (none with a negative skip).
std::string NonEmptyPredicate(const v1::AttributeRule& rule) {
  const v1::TextRange& r = rule.range();
  if (r.skip_start() < 0 || r.skip_end() < 0) return "[false()]";
  const int64_t words = int64_t{r.skip_start()} + r.skip_end() + std::max(1, r.length());
  if (words == 1) return absl::StrCat("[", kNormalized, " != '']");
  return absl::StrCat("[string-length(", kNormalized, ") - string-length(translate(", kNormalized,
                      ", ' ', '')) >= ", words - 1, "]");
}

// The instructions writing the <value> of the context node, which has one.
std::string ValueInstructions(const v1::AttributeRule& rule) {
  if (!rule.has_range()) {
    return absl::StrCat("      <value><xsl:value-of select=\"", kNormalized, "\"/></value>\n");
  }
  const v1::TextRange& r = rule.range();
  std::string from = absl::StrCat(r.skip_start());
  std::string count = absl::StrCat("$vertex-n - ", int64_t{r.skip_start()} + r.skip_end());
  if (r.length() > 0) {
    count = absl::StrCat(r.length());
    if (r.anchor_end()) from = absl::StrCat("$vertex-n - ", int64_t{r.skip_end()} + r.length());
  }
  return absl::StrCat("      <xsl:variable name=\"vertex-s\" select=\"", kNormalized, "\"/>\n",
                      "      <xsl:variable name=\"vertex-n\" select=\"string-length($vertex-s) - "
                      "string-length(translate($vertex-s, ' ', '')) + 1\"/>\n",
                      "      <value><xsl:call-template name=\"vertex-words\">"
                      "<xsl:with-param name=\"s\" select=\"$vertex-s\"/>"
                      "<xsl:with-param name=\"from\" select=\"",
                      from, "\"/><xsl:with-param name=\"count\" select=\"", count,
                      "\"/></xsl:call-template></value>\n");
}

// The <attribute> element of an XPATH rule for schema attribute `index`.
absl::StatusOr<std::string> ExportedAttribute(const v1::AttributeRule& rule, const schema::CompiledSchema& schema,
                                              size_t index) {
  const std::string where = absl::StrCat("rule attribute \"", rule.attribute(), "\": ");
  absl::StatusOr<std::string> xpath = ExportXPath(rule);
  if (!xpath.ok()) return xpath.status();
  if (!IsXmlText(*xpath)) return absl::InvalidArgumentError(where + "XPath holds a character XML cannot hold");
  if (absl::Status s = html::XPath::Compile(*xpath).status(); !s.ok()) {
    return absl::InvalidArgumentError(where + "rewritten XPath does not compile: " + std::string(s.message()));
  }
  const RE2* regex = schema.ValueRegex(index);
  std::string out = absl::StrCat("  <attribute name=\"", AttributeText(rule.attribute(), true), "\" multi-valued=\"",
                                 rule.multi_valued() ? "true" : "false", "\"");
  if (regex != nullptr) {
    if (!IsXmlText(regex->pattern()))
      return absl::InvalidArgumentError(where + "regex holds a character XML cannot hold");
    absl::StrAppend(&out, " regex=\"", AttributeText(regex->pattern(), true), "\"");
  }
  const std::string& attr = rule.value_attribute();
  if (const std::string resolve = UrlResolution(attr); !resolve.empty()) {
    // XSLT 1.0 has no URL resolution: the consumer resolves against these.
    // A <meta> content is a URL only when the meta's property, name or
    // itemprop ends in "url" or "image" (rule/url.h IsUrlAttribute): the
    // stylesheet decides that on the selected element, so resolve is "url"
    // or "".
    std::string value = resolve;
    if (resolve == "meta-url") {
      std::string cond;
      for (const char* key : {"property", "name", "itemprop"}) {
        const std::string lower =
            absl::StrCat("translate(@", key, ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')");
        for (const std::string suffix : {"url", "image"}) {
          if (!cond.empty()) cond += " or ";
          absl::StrAppend(&cond, "substring(", lower, ", string-length(@", key, ") - ", suffix.size() - 1,
                          ") = '", suffix, "'");
        }
      }
      value = absl::StrCat("{substring('url', 1, 3 * boolean((", AttributeText(*xpath, false), ")[1][self::meta][",
                           cond, "]))}");
    }
    absl::StrAppend(&out, " resolve=\"", value,
                    "\" page-url=\"{$page-url}\" base=\"{string((//base[@href])[1]/@href)}\"");
  }
  const bool first_only = !rule.multi_valued() && regex == nullptr;
  // An attribute value is the context node's text, so the rest is the same.
  const std::string value_node = attr.empty() ? "" : "/@" + attr;
  if (!attr.empty() && !IsXmlName(attr)) {
    return absl::InvalidArgumentError(where + "value attribute \"" + attr + "\" is not an XML name");
  }
  absl::StrAppend(&out, ">\n    <xsl:for-each select=\"((", AttributeText(*xpath, false),
                  ")[self::* or (self::text() and not(ancestor::script or ancestor::style or ancestor::noscript))]",
                  value_node, ")", NonEmptyPredicate(rule), first_only ? "[1]" : "", "\">\n", ValueInstructions(rule),
                  "    </xsl:for-each>\n  </attribute>\n");
  return out;
}

std::string UnexportedAttribute(const std::string& name, const char* reason) {
  return absl::StrCat("  <attribute name=\"", AttributeText(name, true), "\" exported=\"false\" reason=\"", reason,
                      "\"/>\n");
}

// The reason attribute of an XPATH rule XSLT 1.0 cannot express, with why;
// null when it can.
const std::pair<const char*, const char*>* XsltLimit(const v1::AttributeRule& a) {
  static constexpr std::pair<const char*, const char*> kJsonPath = {
      "json-path", "the value is read from JSON-LD by a JSON path, which XSLT 1.0 cannot parse"};
  static constexpr std::pair<const char*, const char*> kNearest = {
      "nearest-match", "the value is the typed match nearest a learnt offset, which needs the regex"};
  static constexpr std::pair<const char*, const char*> kSplit = {
      "split", "the value is split at learnt separators (case-insensitive), not written in XSLT 1.0 yet"};
  static constexpr std::pair<const char*, const char*> kCharacters = {
      "character-range", "a character range counts code points, which XSLT 1.0 substring() does only in some processors"};
  static constexpr std::pair<const char*, const char*> kSrcset = {
      "srcset", "the value is the first URL of a srcset, not written in XSLT 1.0 yet"};
  static constexpr std::pair<const char*, const char*> kElementText = {
      "element-text",
      "the value is a learnt element's rendered text (<br> and block boundaries break lines), which string() does not "
      "give"};
  if (!a.json_path().empty()) return &kJsonPath;
  // As the fields export (json_export.h): an editor's XPath to an element
  // (no features) keeps the string-value export it always had.
  if (!a.text_nodes() && a.value_attribute().empty() && a.features_size() > 0) return &kElementText;
  if (a.has_range() && a.range().nearest_match()) return &kNearest;
  if (a.split().separators_size() > 0) return &kSplit;
  if (a.has_range() && a.range().unit() != v1::TextRange::WORDS) return &kCharacters;
  if (a.value_attribute() == "srcset") return &kSrcset;
  return nullptr;
}

// The rule's part for each schema attribute (null when none): the record's
// attributes for a record-level rule.
std::vector<const v1::AttributeRule*> BySchemaIndex(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  std::vector<const v1::AttributeRule*> out(schema.size(), nullptr);
  const auto& parts = rule.has_record() ? rule.record().attributes() : rule.attributes();
  for (const v1::AttributeRule& a : parts) out[schema.Find(a.attribute())] = &a;
  return out;
}

// One <attribute> per schema attribute, in schema order.
absl::StatusOr<std::string> AttributeElements(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  std::string out;
  const std::vector<const v1::AttributeRule*> parts = BySchemaIndex(rule, schema);
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& name = schema.attribute(i).name();
    if (parts[i] == nullptr) {
      out += UnexportedAttribute(name, "no-rule");
    } else if (parts[i]->method() == v1::AttributeRule::CLASSIFIER) {
      out += UnexportedAttribute(name, "classifier");
    } else if (const auto* limit = XsltLimit(*parts[i])) {
      out += UnexportedAttribute(name, limit->first);
    } else {
      absl::StatusOr<std::string> element = ExportedAttribute(*parts[i], schema, i);
      if (!element.ok()) return element.status();
      out += *element;
    }
  }
  return out;
}

// The <list> of a record-level rule: a for-each over the record starts
// (elements, at most kMaxListRecords) writing one <record> each, its
// attributes evaluated with the start as context node.
absl::StatusOr<std::string> ListElement(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  const std::string where = absl::StrCat("record rule of cluster ", rule.cluster_id(), ": ");
  absl::StatusOr<std::string> starts = RewriteEndsWith(rule.record().record_xpath());
  if (!starts.ok()) return absl::InvalidArgumentError(where + std::string(starts.status().message()));
  if (!IsXmlText(*starts)) return absl::InvalidArgumentError(where + "record XPath holds a character XML cannot hold");
  VERTEX_ASSIGN_OR_RETURN(std::string attributes, AttributeElements(rule, schema));
  const std::string select = AttributeText(absl::StrCat("(", *starts, ")[self::*]"), false);
  // The data area: the start's parent's rank among the starts' parents in
  // document order (those before it: preceding or ancestors).
  return absl::StrCat(
      "<list site=\"", AttributeText(rule.site(), true), "\" cluster=\"", AttributeText(rule.cluster_id(), true),
      "\" version=\"", rule.version(), "\" length=\"", rule.record().record_length(), "\">\n",
      "<xsl:variable name=\"vertex-areas\" select=\"", select, "/..\"/>\n", "<xsl:for-each select=\"", select,
      "[position() &lt;= ", kMaxListRecords, "]\">\n",
      "<xsl:variable name=\"vertex-before\" select=\"../preceding::* | ../ancestor::*\"/>\n",
      "<record index=\"{position() - 1}\" data-area=\"{count($vertex-areas[count(. | $vertex-before) = "
      "count($vertex-before)])}\">\n",
      attributes, "</record>\n</xsl:for-each>\n</list>\n");
}

absl::StatusOr<std::string> RecordStart(const v1::Rule& rule) {
  if (!IsXmlText(rule.site()) || !IsXmlText(rule.cluster_id())) {
    return absl::InvalidArgumentError(
        absl::StrCat("rule of cluster ", rule.cluster_id(), ": site or cluster id holds a character XML cannot hold"));
  }
  return absl::StrCat("<record site=\"", AttributeText(rule.site(), true), "\" cluster=\"",
                      AttributeText(rule.cluster_id(), true), "\" version=\"", rule.version(), "\">\n");
}

}  // namespace

std::string XsltUnexportedReason(const v1::AttributeRule& rule) {
  if (rule.method() == v1::AttributeRule::CLASSIFIER) return "picked by a classifier, which XSLT cannot express";
  const auto* limit = XsltLimit(rule);
  return limit == nullptr ? "" : limit->second;
}

absl::StatusOr<std::string> RewriteEndsWith(std::string_view xpath) {
  return EndsWithRewriter(xpath).Rewrite({0, xpath.size()}, 0);
}

absl::StatusOr<std::string> ExportXslt(const v1::Rule& given, const schema::CompiledSchema& schema) {
  absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(given, schema);
  if (!compiled.ok()) return compiled.status();
  // As the engine runs it (record attributes without features).
  const v1::Rule& rule = compiled->proto();
  absl::StatusOr<std::string> record = RecordStart(rule);
  if (!record.ok()) return record.status();
  if (rule.has_record()) {
    VERTEX_ASSIGN_OR_RETURN(std::string list, ListElement(rule, schema));
    return kHead + list + kTail;
  }
  VERTEX_ASSIGN_OR_RETURN(std::string attributes, AttributeElements(rule, schema));
  return kHead + *record + attributes + "</record>\n" + kTail;
}

}  // namespace vertex::extract
