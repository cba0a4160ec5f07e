#include "bench/hand_xpaths.h"

#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include <iterator>
#include <utility>

namespace vertex::bench {
namespace {

// lxml's HTMLParser defaults, with errors off.
constexpr int kLxmlOptions =
    HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_COMPACT | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING;

struct Field {
  const char* name;
  const char* xpath;
};

constexpr Field kSwde[] = {
    {"title", "//div[contains(@class, 'details')]/h2/text()"},
    {"author", "//h3[@class='author']/a/text()"},
    {"isbn_13", "//ul[@class='overview-details']/li[strong='ISBN-13']/text()"},
    {"publisher", "//ul[@class='overview-details']/li[strong='Publisher']/text()"},
    {"publication_date", "//ul[@class='overview-details']/li[strong='Date']/text()"},
};

constexpr Field kDemo[] = {
    {"title", "//h1[@itemprop='name']/text()"},
    {"brand", "//a[@itemprop='brand']/text()"},
    {"price", "//*[@itemprop='price']/text()"},
    {"sku", "//b[.='SKU:']/following-sibling::text()[1]"},
    {"rating", "//span[@class='rating-value']/text()"},
};

xmlDocPtr ReadLikeLxml(std::string_view bytes) {
  return htmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), nullptr, nullptr, kLxmlOptions);
}

}  // namespace

absl::StatusOr<HandXPaths> HandXPaths::Create(bool demo) {
  HandXPaths out;
  static_assert(std::size(kSwde) == std::size(kDemo));
  for (size_t i = 0; i < std::size(kSwde); ++i) {
    const Field& f = demo ? kDemo[i] : kSwde[i];
    xmlXPathCompExprPtr c = xmlXPathCompile(BAD_CAST f.xpath);
    if (c == nullptr) return absl::InvalidArgumentError(std::string("libxml2 does not compile ") + f.xpath);
    out.names_.push_back(f.name);
    out.expressions_.push_back(f.xpath);
    out.compiled_.push_back(c);
  }
  return out;
}

HandXPaths::HandXPaths(HandXPaths&& other) noexcept
    : names_(std::move(other.names_)),
      expressions_(std::move(other.expressions_)),
      compiled_(std::exchange(other.compiled_, {})) {}

HandXPaths::~HandXPaths() {
  for (xmlXPathCompExprPtr c : compiled_) xmlXPathFreeCompExpr(c);
}

bool HandXPaths::Parse(std::string_view bytes) {
  xmlDocPtr doc = ReadLikeLxml(bytes);
  if (doc == nullptr) return false;
  xmlFreeDoc(doc);
  return true;
}

std::vector<std::string> HandXPaths::Run(std::string_view bytes) const {
  std::vector<std::string> values(compiled_.size());
  xmlDocPtr doc = ReadLikeLxml(bytes);
  if (doc == nullptr) return values;
  xmlXPathContextPtr context = xmlXPathNewContext(doc);
  for (size_t i = 0; context != nullptr && i < compiled_.size(); ++i) {
    xmlXPathObjectPtr result = xmlXPathCompiledEval(compiled_[i], context);
    if (result != nullptr && result->type == XPATH_STRING && result->stringval != nullptr) {
      values[i] = reinterpret_cast<const char*>(result->stringval);
    } else if (result != nullptr && result->type == XPATH_NODESET && result->nodesetval != nullptr &&
               result->nodesetval->nodeNr > 0) {
      xmlChar* s = xmlNodeGetContent(result->nodesetval->nodeTab[0]);
      if (s != nullptr) values[i] = reinterpret_cast<const char*>(s);
      xmlFree(s);
    }
    xmlXPathFreeObject(result);
  }
  xmlXPathFreeContext(context);
  xmlFreeDoc(doc);
  return values;
}

}  // namespace vertex::bench
