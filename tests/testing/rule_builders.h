// Hand-built rule parts for tests.
//
// Thread-safety: pure functions.
#ifndef VERTEX_TESTS_TESTING_RULE_BUILDERS_H_
#define VERTEX_TESTS_TESTING_RULE_BUILDERS_H_

#include <string>

#include "vertex/v1/rule.pb.h"

namespace vertex::test_support {

// An XPATH attribute rule: `xpath` selects the value nodes.
inline v1::AttributeRule XPathAttributeRule(const std::string& attribute, const std::string& xpath,
                                            bool multi_valued = false) {
  v1::AttributeRule a;
  a.set_attribute(attribute);
  a.set_method(v1::AttributeRule::XPATH);
  a.set_xpath(xpath);
  a.set_multi_valued(multi_valued);
  return a;
}

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_RULE_BUILDERS_H_
