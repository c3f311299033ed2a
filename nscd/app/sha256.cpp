#include "nscd/app/sha256.hpp"

#include "nscd/core/error.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <iterator>
#include <vector>

namespace nscd::app {

std::string sha256_hex(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  NSCD_THROW_UNLESS(in.good(), "{}: cannot read the file", file.string());
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace nscd::app
