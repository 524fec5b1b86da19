#pragma once

// SCHEDLAB_TEST_ASAN: this test is built with AddressSanitizer. GCC says so
// by __SANITIZE_ADDRESS__, clang 14 only by __has_feature (the sanitized
// build is clang's).
#if defined(__SANITIZE_ADDRESS__)
#define SCHEDLAB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHEDLAB_TEST_ASAN 1
#endif
#endif
