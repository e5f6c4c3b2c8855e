#!/usr/bin/env bash
# The Debian packages the test suite needs beyond Java and Maven, installed when missing (run as root, or with sudo):
#   libgomp1                   xgboost4j's native library needs OpenMP
#   chromium, chromium-driver  the review page's browser test (ReviewPageBrowserTest) drives the system's headless
#                              Chromium through its chromedriver; Selenium never downloads a driver
#   nodejs, npm                JsRagClientsTest runs real LangChain.js and LlamaIndex.TS RAG clients; npm ci installs
#                              their pinned packages from the npm registry into cli/target
set -euo pipefail

missing=()
ldconfig -p | grep -q 'libgomp.so.1' || missing+=(libgomp1)
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
