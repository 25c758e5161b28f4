package dev.kcshare.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

final class KcshareThreadsTest {
  private static final Runnable NOTHING = () -> {};

  @Test
  void theDefaultMakesDaemonsNamedForTheirJob() {
    KcshareThreads threads = KcshareThreads.defaults();
    Thread t = threads.newThread(NOTHING, "kcshare-probe-1-stdout");
    assertThat(t.getName()).isEqualTo("kcshare-probe-1-stdout");
    assertThat(t.isDaemon()).isTrue();
    assertThat(t.getState()).isEqualTo(Thread.State.NEW);
    ThreadFactory pool = threads.pool("kcshare-pass");
    assertThat(pool.newThread(NOTHING).getName()).isEqualTo("kcshare-pass-1");
    assertThat(pool.newThread(NOTHING).getName()).isEqualTo("kcshare-pass-2");
    ThreadFactory facade = threads.facadeThreads();
    Thread own = facade.newThread(NOTHING);
    assertThat(own.getName()).isEqualTo("kcshare-embed-1");
    assertThat(own.isDaemon()).isTrue();
  }

  @Test
  void anEmbeddersFactoryKeepsItsNamesAndGroupAndTheJobIsAppended() {
    ThreadGroup group = new ThreadGroup("gateway");
    ThreadFactory gateway =
        task -> {
          Thread t = new Thread(group, task, "gw");
          t.setDaemon(false);
          return t;
        };
    KcshareThreads threads = KcshareThreads.of(gateway);
    Thread t = threads.newThread(NOTHING, "kcshare-head-start");
    assertThat(t.getName()).isEqualTo("gw/kcshare-head-start");
    assertThat(t.getThreadGroup()).isSameAs(group);
    assertThat(t.isDaemon()).as("a thread of a pass is always a daemon").isTrue();
    assertThat(threads.pool("kcshare-recheck").newThread(NOTHING).getName())
        .isEqualTo("gw/kcshare-recheck-1");
    assertThat(threads.facadeThreads())
        .as("the facade's own: as the gateway makes them")
        .isSameAs(gateway);
  }

  @Test
  void aFactoryThatGivesNoThreadIsARefusalNamingTheJob() {
    KcshareThreads threads = KcshareThreads.of(task -> null);
    assertThatThrownBy(() -> threads.newThread(NOTHING, "kcshare-probe-2-stderr"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kcshare-probe-2-stderr");
    assertThatThrownBy(() -> threads.pool("kcshare-pass").newThread(NOTHING))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kcshare-pass-1");
    assertThatThrownBy(() -> KcshareThreads.of(null)).isInstanceOf(NullPointerException.class);
  }
}
