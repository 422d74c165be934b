/* Runs uuidv47's reference implementation (its header, uuidv47.h, from the source that
 * scripts/peers-build.sh is given) over lines of "<UUIDv7> <façade>" on stdin, under the key
 * k0 k1 (two hexadecimal numbers, as uuidv47's C API takes them), and writes a line per input:
 * the façade it makes of the UUIDv7, and the UUIDv7 it reads from the façade. For
 * test/t/public_uuid.pl, which compares both with idgen's. */
#include <stdio.h>
#include <stdlib.h>

#include "uuidv47.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: uuidv47_driver <k0 hex> <k1 hex> < lines of \"v7 facade\"\n");
    return 2;
  }
  uuidv47_key_t key = {strtoull(argv[1], NULL, 16), strtoull(argv[2], NULL, 16)};
  char v7_text[64], facade_text[64];
  while (scanf("%63s %63s", v7_text, facade_text) == 2) {
    uuid128_t v7, facade;
    if (!uuid_parse(v7_text, &v7) || !uuid_parse(facade_text, &facade)) {
      fprintf(stderr, "uuidv47_driver: not a UUID: %s %s\n", v7_text, facade_text);
      return 1;
    }
    uuid128_t made = uuidv47_encode_v4facade(v7, key), read = uuidv47_decode_v4facade(facade, key);
    char made_text[37], read_text[37];
    uuid_format(&made, made_text);
    uuid_format(&read, read_text);
    printf("%s %s\n", made_text, read_text);
  }
  return 0;
}
