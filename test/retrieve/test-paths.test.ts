import { describe, expect, it } from "vitest";
import { isTestPath, isVendoredPath } from "../../src/retrieve/lexical-index.js";

describe("test files", () => {
  it("TypeScript's and JavaScript's by folder and by name", () => {
    for (const path of ["src/__tests__/auth.ts", "test/auth.ts", "packages/a/tests/b.js", "src/auth.test.ts", "src/auth.spec.tsx", "src/button.stories.jsx"]) expect(isTestPath(path), path).toBe(true);
    for (const path of ["src/auth.ts", "src/testing-library.ts", "src/latest.ts", "src/contest.ts"]) expect(isTestPath(path), path).toBe(false);
  });

  it("Python's as pytest collects them, in any folder: test_*.py, *_test.py and conftest.py", () => {
    for (const path of ["src/app/test_models.py", "test_cli.py", "pkg/models_test.py", "conftest.py", "src/app/conftest.py", "tests/helpers.py"]) expect(isTestPath(path), path).toBe(true);
    for (const path of ["src/app/models.py", "src/app/testing.py", "src/app/latest_build.py", "src/app/contest.py", "src/app/attest.py"]) expect(isTestPath(path), path).toBe(false);
  });
});

describe("vendored files", () => {
  it("under a vendor, _vendor, vendored or third-party folder at any depth", () => {
    for (const path of ["src/pip/_vendor/rich/traceback.py", "vendor/lodash.js", "lib/vendored/six.py", "third_party/abseil/str.ts", "packages/a/third-party/x.js", "src/thirdparty/y.py", "Vendor/z.ts"])
      expect(isVendoredPath(path), path).toBe(true);
    for (const path of ["src/vendors/list.ts", "src/vendor.ts", "src/vendor_api.py", "app/models/vendor_account.py", "src/party/third.ts", "src/_vendorize.py"]) expect(isVendoredPath(path), path).toBe(false);
  });
});
