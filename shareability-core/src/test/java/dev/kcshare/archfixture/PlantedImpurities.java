package dev.kcshare.archfixture;

import java.io.File;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.TestInfo;

/**
 * Deliberately impure code, never executed: {@code CorePurityTest} checks the core's purity rules
 * against this class to prove every rule reports what it should. It lives outside {@code
 * dev.kcshare.core} and in the test tree, so it is never part of the checked core.
 */
@SuppressWarnings("unused")
final class PlantedImpurities {
  private TestInfo notAJdkType; // a non-JDK dependency

  private PlantedImpurities() {}

  static Object io() {
    return new File("planted");
  }

  static Object nio() {
    return Path.of("planted");
  }

  static Object net() {
    return java.net.URI.create("http://planted.invalid/");
  }

  static Object process() {
    return new ProcessBuilder("true");
  }

  static Object runtime() {
    return Runtime.getRuntime();
  }

  static Object thread() {
    return new Thread(() -> {});
  }

  static Object pool() {
    return Executors.newSingleThreadExecutor();
  }

  static Object clock() {
    return Clock.systemUTC();
  }

  static Object instantNow() {
    return Instant.now();
  }

  static Object dateNow() {
    return LocalDate.now();
  }

  static String env() {
    return System.getenv("PLANTED");
  }

  static String property() {
    return System.getProperty("planted");
  }

  static long millis() {
    return System.currentTimeMillis();
  }

  static LongSupplier nanoTimeReference() {
    return System::nanoTime;
  }

  static void print() {
    System.out.println("planted");
  }

  static Object random() {
    return new Random(1);
  }

  static Object splittable() {
    return new SplittableRandom(1);
  }

  static Object secure() {
    return new SecureRandom();
  }

  static int threadLocal() {
    return ThreadLocalRandom.current().nextInt();
  }

  static Object uuid() {
    return UUID.randomUUID();
  }

  static double mathRandom() {
    return Math.random();
  }

  static String defaultLocaleUpperCase(String s) {
    return s.toUpperCase();
  }

  static long systemProperty() {
    return Long.getLong("planted", 0L);
  }
}
