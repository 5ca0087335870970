package dev.redrive.triage.decision;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The order in which chunks in flight side by side may write (see {@link WriteTurn}). */
class WriteTurnTest {

    @Test
    void aChunkWritesOnlyOnceTheOneBeforeItHasPassedItsTurnOn() throws Exception {
        WriteTurn first = WriteTurn.first();
        WriteTurn second = first.next();
        CompletableFuture<Void> secondWrote = CompletableFuture.runAsync(second::await);

        assertThat(secondWrote).isNotDone();
        Thread.sleep(50);
        assertThat(secondWrote).isNotDone();
        first.pass();
        secondWrote.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aChunkWhosePredecessorFailed_isNotDecided() {
        WriteTurn first = WriteTurn.first();
        WriteTurn second = first.next();
        first.fail(new IllegalStateException("connection lost"));

        assertThatThrownBy(second::await).isInstanceOf(IllegalStateException.class)
                .hasMessage("not decided: the chunk before this one failed (connection lost)");
    }

    @Test
    void aStopAskedForBeforeAChunksTurn_rollsItBackAndEveryChunkAfterIt() {
        AtomicBoolean stop = new AtomicBoolean();
        WriteTurn first = WriteTurn.first().unlessStopped(stop::get);
        WriteTurn second = first.next().unlessStopped(stop::get);
        WriteTurn third = second.next();

        first.await();
        stop.set(true);
        first.pass();

        assertThatThrownBy(second::await).isInstanceOf(WriteTurn.StoppedBeforeWriting.class);
        second.fail(new WriteTurn.StoppedBeforeWriting());
        assertThatThrownBy(third::await).isInstanceOf(WriteTurn.StoppedBeforeWriting.class);
    }

    @Test
    void theItemsOfAChunkAlreadyWriting_areNotRefusedForAStop_norPassTheTurnOn() {
        AtomicBoolean stop = new AtomicBoolean();
        WriteTurn first = WriteTurn.first();
        WriteTurn second = first.next().unlessStopped(stop::get);
        first.pass();
        second.await();
        stop.set(true);
        WriteTurn item = second.within();

        item.await();
        item.pass();

        CompletableFuture<Void> third = CompletableFuture.runAsync(second.next()::await);
        assertThat(third).isNotDone();
        second.pass();
        assertThat(third).succeedsWithin(5, TimeUnit.SECONDS);
    }

    @Test
    void theItemsOfAChunkThatLostARaceBeforeItsTurn_areRefusedForAStopAskedMeanwhile() {
        AtomicBoolean stop = new AtomicBoolean(true);
        WriteTurn first = WriteTurn.first();
        WriteTurn second = first.next().unlessStopped(stop::get);
        first.pass();

        assertThatThrownBy(second.within()::await).isInstanceOf(WriteTurn.StoppedBeforeWriting.class);
    }

    @Test
    void aChunkWaitingTooLongForItsTurn_isToldSo_andThenWaitsWithoutItsLocks() throws Exception {
        WriteTurn first = WriteTurn.first(Duration.ofMillis(100));
        WriteTurn second = first.next();

        assertThatThrownBy(second::await).isInstanceOf(WriteTurn.WaitedTooLong.class);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(second::awaitWithoutLocks);
        Thread.sleep(200);
        assertThat(waiting).isNotDone();
        first.pass();
        waiting.get(5, TimeUnit.SECONDS);
        second.await();
    }
}
