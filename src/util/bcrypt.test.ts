import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bcryptBase64Decode, bcryptHash, bcryptVerify } from './bcrypt.js';

// golang.org/x/crypto/bcrypt bcrypt_test.go TestBcryptingIsEasy / TestVeryShortPasswords vectors
test('bcrypt matches x/crypto/bcrypt', () => {
  const salt = bcryptBase64Decode('XajjQvNhvvRt5GSeFk1xFe').subarray(0, 16);
  assert.equal(bcryptHash(Buffer.from('allmine'), salt, 10), '$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt.wU1qD4aFDcga');
  assert.ok(bcryptVerify('$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt.wU1qD4aFDcga', Buffer.from('allmine')));
  assert.ok(!bcryptVerify('$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt.wU1qD4aFDcga', Buffer.from('allmind')));
});

test('bcrypt refuses passwords over 72 bytes', () => {
  assert.throws(() => bcryptHash(Buffer.alloc(73, 0x61), Buffer.alloc(16), 4), /password length exceeds 72 bytes/);
});

test('bcrypt verifies a hash helm v4.1.4 made (sprig bcrypt "pw")', () => {
  assert.ok(bcryptVerify('$2a$10$ltd1wWJvzKiuuREXp2gvxur0WzLkbaiaf0XrRMl1lquMPoYgVWkHq', Buffer.from('pw')));
  assert.ok(!bcryptVerify('$2a$10$ltd1wWJvzKiuuREXp2gvxur0WzLkbaiaf0XrRMl1lquMPoYgVWkHq', Buffer.from('pW')));
});
