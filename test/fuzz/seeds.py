#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses (test/fuzz/corpus/<harness>/): known-answer
vectors and edge cases (empty, max length, max value, max + 1, every separator position, mixed
case, non-ASCII bytes). Run it again after adding a harness; crashes found later are added by hand
as corpus/<harness>/crash-<name>, and stay."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(harness, name, data):
    d = os.path.join(HERE, 'corpus', harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


B36 = '0123456789abcdefghijklmnopqrstuvwxyz'
B32 = '0123456789abcdefghjkmnpqrstvwxyz'
B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

# typeid
for name, text in {
    'rfc-base36': 'post_036twi214qwj7mgsvq83nm8wf',
    'spec-base32': 'prefix_01h455vb4pex5vsknk084sn02q',
    'spec-empty-prefix': '01h455vb4pex5vsknk084sn02q',
    'max-128-bits': 'x_f5lxx1zz5pnorynqglhzmsp33',
    'max-plus-one': 'x_f5lxx1zz5pnorynqglhzmsp34',
    'upper-case': 'POST_036TWI214QWJ7MGSVQ83NM8WF',
    'mixed-case': 'post_036TWi214qwj7mgsvq83nm8wf',
    'empty': '',
    'no-separator': 'post036twi214qwj7mgsvq83nm8wf',
    'long-prefix': 'a' * 63 + '_036twi214qwj7mgsvq83nm8wf',
    'too-long-prefix': 'a' * 64 + '_036twi214qwj7mgsvq83nm8wf',
    'separators': 'a_b_c_036twi214qwj7mgsvq83nm8wf',
    'non-ascii': 'p\xe9st_036twi214qwj7mgsvq83nm8wf',
    'fraction-fff': 'x_' + '0' * 1 + '3q5dmgv3sbkdxqhe8gv0b2xtd',
    'spec-upper-body': 'prefix_01H455VB4PEX5VSKNK084SN02Q',
    'spec-overflow': 'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz',
    'spec-empty-prefix-separator': '_01h455vb4pex5vsknk084sn02q',
}.items():
    write('typeid', name, text)
write('typeid', 'utf8-bytes', 'post_'.encode() + bytes([0xc3, 0xa9] * 13))

# codec: first byte = base (0 16, 1 32, 2 36, 3 62) | width index << 2 (0: 8, 1: 16, 2: 32 bytes)
for name, head, text in [
    ('b16-bigint-max', 0, '7fffffffffffffff'), ('b16-bigint-2^64-1', 0, 'ffffffffffffffff'),
    ('b16-bigint-over', 0, '10000000000000000'), ('b36-bigint-max', 2, '1y2p0ij32e8e7'),
    ('b36-2^64-1', 2, '3w5e11264sgsf'), ('b62-bigint-max', 3, 'AzL8n0Y58m7'), ('b62-over', 3, 'AzL8n0Y58m8'),
    ('b36-uuid-max', 2 | 4, 'f5lxx1zz5pnorynqglhzmsp33'), ('b36-uuid-over', 2 | 4, 'f5lxx1zz5pnorynqglhzmsp34'),
    ('b36-uuid-rfc', 2 | 4, '036twi214qwj7mgsvq83nm8wf'), ('b32-uuid-spec', 1 | 4, '01h455vb4pex5vsknk084sn02q'),
    ('b16-uuid', 0 | 4, '017f22e279b07cc398c4dc0c0c07398f'), ('b62-uuid-max', 3 | 4, '7n42DGM5Tflk9n8mt7Fhc7'),
    ('empty', 2, ''), ('upper', 2, 'ZZZ'), ('b62-case', 3, 'zZ'), ('bad-digit', 2, '12-4'),
    ('b16-32-bytes', 0 | 8, 'f' * 64), ('leading-zeros', 2, '0' * 13),
]:
    write('codec', name, bytes([head]) + text.encode())
# base32hex: first byte 0xF0 | width (0: 8, 1: 16, 2: 32 bytes); padding of every kind decode() reads
for name, head, text in [
    ('b32hex-uuid', 0xF1, '0690B9E1K8U3N3AE7T0E32CJKG'), ('b32hex-uuid-padded', 0xF1, '0690b9e1k8u3n3ae7t0e32cjkg======'),
    ('b32hex-uuid-part-padded', 0xF1, '0690B9E1K8U3N3AE7T0E32CJKG='),
    ('b32hex-uuid-over-padded', 0xF1, '0690B9E1K8U3N3AE7T0E32CJKG' + '=' * 11),
    ('b32hex-uuid-spaces', 0xF1, ' 0690B9E1 K8U3N3AE\n7T0E32CJKG\r\n=== ==='),
    ('b32hex-uuid-after-padding', 0xF1, '0690B9E1K8U3N3AE7T0E32CJKG==0'),
    ('b32hex-8-bytes', 0xF0, 'CPNMUOJ1E8======'), ('b32hex-uuid-bits', 0xF1, '0690B9E1K8U3N3AE7T0E32CJKH'),
]:
    write('codec', name, bytes([head]) + text.encode())

# objectid
for name, text in {
    'spec-1': '507f191e810c19729de860ea', 'spec-2': '507f1f77bcf86cd799439011',
    'upper': '507F191E810C19729DE860EA', 'max': 'f' * 24, 'zero': '0' * 24, '2038': '800000000000000000000000',
    'short': '507f191e810c19729de860e', 'long': '507f191e810c19729de860eaa', 'bad': '507f191e810c19729de860eg',
    'empty': '',
}.items():
    write('objectid', name, text)

# token: "<prefix>_<43><43>"
random_part = ''.join(B62[(i * 7) % 62] for i in range(43))
tag = ''.join(B62[(i * 11 + 3) % 62] for i in range(43))
for name, text in {
    'shape': 'reset_' + random_part + tag, 'max-digits': 'a_' + 'z' * 86, 'over': 'a_' + 'z' * 43 + 'z' * 43,
    'no-prefix': '_' + random_part + tag, 'bad-prefix': 'Reset_' + random_part + tag, 'short': 'reset_' + random_part,
    'long-prefix': 'a' * 63 + '_' + random_part + tag, 'empty': '',
}.items():
    write('token', name, text)

# ns_id: first byte = random_bits (0..64) | 0x80 for an alphabet "<digits>|" before the text
v = 1767225600123456789 << 32
s = ''
while v:
    s = B36[v % 36] + s
    v //= 36
write('ns_id', 'known-32', bytes([32]) + s.rjust(19, '0').encode())
write('ns_id', 'upper-32', bytes([32]) + s.rjust(19, '0').upper().encode())
write('ns_id', 'max-0', bytes([0]) + b'1y2p0ij32e8e7')
write('ns_id', 'over-0', bytes([0]) + b'1y2p0ij32e8e8')
write('ns_id', 'bits-64', bytes([64]) + b'0' * 25)
write('ns_id', 'base2', bytes([0x80 | 16]) + b'01|' + b'1' * 79)
write('ns_id', 'base62', bytes([0x80 | 32]) + B62.encode() + b'|' + b'0' * 16)
write('ns_id', 'bad-alphabet', bytes([0x80 | 32]) + b'zyx|abc')
write('ns_id', 'empty', bytes([32]))

# uid20: decimal digits
for name, text in {
    'vector-1': '1234561', 'vector-2': '315360000001234561', 'vector-3': '18290880000001234561',
    'uint64-max': '18446744073709551615', 'uint64-over': '18446744073709551616', 'bigint-max': '9223372036854775807',
    'zero': '0', 'leading-zeros': '00000000000001234561', 'digits-39': '9' * 39, 'digits-40': '9' * 40,
    'negative': '-1', 'fraction': '1.5', 'nan': 'NaN', 'empty': '',
}.items():
    write('uid20', name, text)

# public_id: 11 base62 characters; 24+ bytes also drive the permutation
for name, text in {
    'one': '00000000001', 'max': 'AzL8n0Y58m7', 'over': 'AzL8n0Y58m8', 'zero': '00000000000', 'short': 'short',
    'bad': '0000000000!', 'empty': '',
}.items():
    write('public_id', name, text)
write('public_id', 'key-and-id', bytes(range(16)) + struct.pack('<Q', 1))
write('public_id', 'key-and-max', bytes(range(16)) + struct.pack('<Q', 2**63 - 1))

# decoders: 16 bytes (a UUID; its first 8 little-endian are the bigint)
write('decoders', 'rfc-uuidv7', bytes.fromhex('017f22e279b07cc398c4dc0c0c07398f'))
write('decoders', 'fraction-fff', bytes.fromhex('01890a5dac967fff8000000000000000'))
write('decoders', 'uuidv4', bytes.fromhex('5bd1ac3e1b8b4a4a9bd166a4b2ee1aa4'))
write('decoders', 'instagram', struct.pack('<q', 2384288897814875714) + bytes(8))
write('decoders', 'decimal-max', struct.pack('<q', 9223372029999999999) + bytes(8))
write('decoders', 'decimal-vector', struct.pack('<q', 14150009200065) + bytes(8))
write('decoders', 'bigint-max', struct.pack('<q', 2**63 - 1) + bytes(8))
write('decoders', 'negative', struct.pack('<q', -1) + bytes(8))
write('decoders', 'js-max', struct.pack('<q', 2**53 - 1) + bytes(8))

# ulid: 26 characters of Crockford base32 (the spec's example, its extremes, either case, the
# aliases I, L and O, a U, wrong lengths, non-ASCII bytes); any 16 bytes also encode and decode back.
for name, text in {
    'empty': '',
    'spec-example': '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'spec-monotonic': '01BX5ZZKBKACTAV9WEVGEMMVS0',
    'max-128-bits': '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    'max-plus-one': '80000000000000000000000000',
    'zero': '00000000000000000000000000',
    'lowercase': '01arz3ndektsv4rrffq69g5fav',
    'crockford-aliases': 'OIARZ3NDEKTSV4RRFFQ69G5FAL',
    'letter-u': '01ARZ3NDEKTSV4RRFFQ69G5FAU',
    'short': '01ARZ3NDEKTSV4RRFFQ69G5FA',
    'long': '01ARZ3NDEKTSV4RRFFQ69G5FAVV',
    'non-ascii': '01ARZ3NDEKTSV4RRFFQ69G5FA\u20ac',
}.items():
    write('ulid', name, text)

# type_id: the first byte picks the input (0 the type's text input, 1 the cast from text, 2 stored
# bytes, 3 the binary form, 4 two texts separated by a newline); the spec's valid and invalid
# vectors, idgen's base36 form, each stored form (compact, short, long) and the prefixes that sort
# around "_" and 12 characters.
SPEC_VALID = ['00000000000000000000000000', '7zzzzzzzzzzzzzzzzzzzzzzzzz', 'prefix_0123456789abcdefghjkmnpqrs',
              'prefix_01h455vb4pex5vsknk084sn02q', 'pre_fix_00000000000000000000000000']
SPEC_INVALID = ['PREFIX_00000000000000000000000000', '12345_00000000000000000000000000',
                'pr\u00e9fix_00000000000000000000000000', '_00000000000000000000000000', '_',
                'prefix_1234567890123456789012345', 'prefix_123456789012345678901234567',
                'prefix_0123456789ABCDEFGHJKMNPQRS', 'prefix_ooooooiiiiiiuuuuuuulllllll',
                'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz', '_prefix_00000000000000000000000000',
                'prefix__00000000000000000000000000', 'a' * 64 + '_00000000000000000000000000']
for i, text in enumerate(SPEC_VALID):
    write('type_id', f'text-valid-{i}', bytes([0]) + text.encode())
for i, text in enumerate(SPEC_INVALID):
    write('type_id', f'text-invalid-{i}', bytes([0]) + text.encode())
write('type_id', 'text-63', bytes([0]) + ('a' * 63 + '_01h455vb4pex5vsknk084sn02q').encode())
write('type_id', 'text-12', bytes([0]) + b'user_account_01h455vb4pex5vsknk084sn02q')
write('type_id', 'text-13', bytes([0]) + b'user_accounts_01h455vb4pex5vsknk084sn02q')
write('type_id', 'cast-base36', bytes([1]) + b'post_036twi214qwj7mgsvq83nm8wf')
write('type_id', 'cast-base36-upper', bytes([1]) + b'post_036TWI214QWJ7MGSVQ83NM8WF')
write('type_id', 'cast-base36-over', bytes([1]) + b'post_f5lxx1zz5pnorynqglhzmsp34')
# Stored bytes: "user" with a UUIDv7 (compact), the nil UUID (short), a 13-character prefix (long),
# and lengths that no form has.
def prefix_number(p):
    n = 0
    for i in range(12):
        n = n * 28 + ((1 if p[i] == '_' else ord(p[i]) - ord('a') + 2) if i < len(p) else 0)
    return n
rfc = bytes.fromhex('017f22e279b07cc398c4dc0c0c07398f')
u = int.from_bytes(rfc, 'big')
compact = (prefix_number('user') << 123) | ((u >> 80) << 75) | (1 << 74) | (((u >> 64) & 0xFFF) << 62) | (u & ((1 << 62) - 1))
write('type_id', 'stored-compact', bytes([2]) + (compact << 3).to_bytes(23, 'big'))
write('type_id', 'stored-short', bytes([2]) + prefix_number('user').to_bytes(8, 'big') + bytes(16))
write('type_id', 'stored-long', bytes([2]) + b'user_accounts' + rfc)
write('type_id', 'stored-25', bytes([2]) + bytes(25))
write('type_id', 'stored-ff', bytes([2]) + b'\xff' * 24)
write('type_id', 'binary-user', bytes([3]) + rfc + b'user')
write('type_id', 'binary-empty', bytes([3]) + rfc)
write('type_id', 'binary-short', bytes([3]) + rfc[:15])
write('type_id', 'binary-upper', bytes([3]) + rfc + b'User')
for i, (a, b) in enumerate([('a_00000000000000000000000000', 'ab_00000000000000000000000000'),
                            ('a_b_00000000000000000000000000', 'ab_00000000000000000000000000'),
                            ('abcdefghijkl_01h455vb4pex5vsknk084sn02q', 'abcdefghijklm_00000000000000000000000000'),
                            ('00000000000000000000000000', 'a_00000000000000000000000000'),
                            ('post_036twi214qwj7mgsvq83nm8wf', 'post_01fwhe4ydgfk1shh6w1g60eecf')]):
    write('type_id', f'pair-{i}', bytes([4]) + a.encode() + b'\n' + b.encode())

# sql_names: statements and log lines that name a secret setting, in each spelling
for name, text in {
    'plain': "ALTER SYSTEM SET idgen.token_secret = 'x'",
    'quoted': 'ALTER SYSTEM SET "IDGEN"."TOKEN_SECRET" = \'x\'',
    'unicode': 'ALTER SYSTEM SET U&"idgen.token_\\0073ecret" = \'x\'',
    'uescape': "ALTER SYSTEM SET U&\"idgen.public_id_!006Bey\" UESCAPE '!' = 'x'",
    'escape-string': "SELECT set_config(E'idgen.token\\x5fsecret', 'x', false)",
    'continued': "SELECT set_config('idgen.token_'\n'secret', 'x', false)",
    'dollar': "DO $a$BEGIN PERFORM set_config($$idgen.token_secret$$, 'x', false); END$a$",
    'comments': 'SET idgen/* a /* nested */ comment */ -- and a line\n.token_secret = 1',
    'parameters': "parameters: $1 = 'idgen.token_secret', $2 = 'x'",
    'unterminated': "SELECT U&'idgen.token_\\",
}.items():
    write('sql_names', name, text)

# public_uuid: the first byte picks the part: 0 the key's text, 1 a key (16 bytes), a UUID (16) and
# the mapping (a byte), 2 a typeid's text.
for name, text in {
    'key-32-digits': '000102030405060708090a0b0c0d0e0f',
    'key-halves': 'efcdab8967452301:1032547698badcfe',
    'key-upper': 'EFCDAB8967452301:1032547698BADCFE',
    'key-two-lines': 'opaque:000102030405060708090a0b0c0d0e0f\nefcdab8967452301:1032547698badcfe\n',
    'key-uuidv47': '  uuidv47:000102030405060708090a0b0c0d0e0f  ',
    'key-three': ' '.join(['000102030405060708090a0b0c0d0e0f'] * 3),
    'key-short': '000102030405060708090a0b0c0d0e0',
    'key-long': '000102030405060708090a0b0c0d0e0f0',
    'key-colon-misplaced': '00010203040506070:8090a0b0c0d0e0f',
    'key-bad-digit': '000102030405060708090a0b0c0d0e0g',
    'key-bad-mapping': 'sealed:000102030405060708090a0b0c0d0e0f',
    'key-empty-mapping': ':000102030405060708090a0b0c0d0e0f',
    'key-empty': '',
    'key-blank': ' \t\r\n\v\f',
    'key-passphrase': 'a passphrase of thirty-two bytes or more is not a key',
}.items():
    write('public_uuid', name, b'\x00' + text.encode())
write('public_uuid', 'key-non-ascii', b'\x00' + 'é'.encode() * 16)
PEER_KEY = bytes.fromhex('efcdab89674523011032547698badcfe')
for name, uuid, mapping in [('v7-readme', '018f2d9f9a2a7def8c3f7b1a2c4d5e6f', 0),
                            ('facade-readme', '2463c7807fca4def8c3f7b1a2c4d5e6f', 0),
                            ('v7-zero', '00000000000070008000000000000000', 1),
                            ('v7-last-ms', '03ffffffffff7fffbfffffffffffffff', 1),
                            ('v7-too-late', '04000000000070008000000000000000', 0),
                            ('v4-max', 'ffffffffffff4fffbfffffffffffffff', 0),
                            ('nil', '00000000000000000000000000000000', 1),
                            ('max', 'ffffffffffffffffffffffffffffffff', 0)]:
    write('public_uuid', name, b'\x01' + PEER_KEY + bytes.fromhex(uuid) + bytes([mapping]))
for name, text in {
    'typeid-base32': 'user_01hyttsxmaftfrgzxv38p4tqkf',
    'typeid-facade': 'user_6mhft4ncg49tfrgzxv38p4tqkf',
    'typeid-base36': 'user_016te5xykeuloc6dvxu8bo3fh',
    'typeid-bare': '01hyttsxmaftfrgzxv38p4tqkf',
    'typeid-v4': 'user_2463c7807fca4def8c3f7b1a2c',
    'typeid-upper': 'User_01hyttsxmaftfrgzxv38p4tqkf',
    'typeid-empty-body': 'user_',
}.items():
    write('public_uuid', name, b'\x02' + text.encode())
