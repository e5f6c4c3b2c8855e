package io.raglog.bench.review;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's Chromium, headless, through the system's chromedriver (Debian's {@code chromium} and
 * {@code chromium-driver}); both paths given, so Selenium Manager never runs and nothing is downloaded.
 */
final class HeadlessChromium {

    static final Path BROWSER = Path.of(System.getProperty("raglog.bench.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("raglog.bench.chromedriver", "/usr/bin/chromedriver"));

    private HeadlessChromium() {}

    static ChromeDriver start() {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("the review figures need Chromium at " + BROWSER + " and chromedriver at "
                    + DRIVER + ": install Debian's chromium and chromium-driver (scripts/install-test-packages.sh)");
        }
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, DRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(BROWSER.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=1440,1000", "--no-first-run", "--disable-extensions",
                        "--disable-background-networking", "--disable-sync", "--disable-default-apps");
        return new ChromeDriver(service, options);
    }
}
