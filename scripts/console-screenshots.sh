#!/usr/bin/env bash
# Regenerates the web console's screenshots in docs/console/ (login, overview, queues, queue,
# mqsc, channels): the browser test drives a real queue manager in headless Chromium and saves
# each main page as it passes. Needs Debian's chromium and Node.js (npm ci in tests/browser).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
(cd tests/browser && npm ci --no-audit --no-fund --silent)
SCREENSHOTS="$PWD/docs/console" cargo test -p ferry --test console a_person_runs_the_queue_manager_from_a_real_browser -- --ignored
ls -1 docs/console/*.png
