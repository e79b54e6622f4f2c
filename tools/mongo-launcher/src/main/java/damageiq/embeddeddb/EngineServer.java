package damageiq.embeddeddb;

import java.net.InetSocketAddress;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.wire.MongoDatabaseHandler;
import de.bwaldvogel.mongo.wire.MongoExceptionHandler;
import de.bwaldvogel.mongo.wire.MongoWireMessageEncoder;
import de.bwaldvogel.mongo.wire.MongoWireProtocolHandler;
import de.bwaldvogel.mongo.wire.MongoWireReplyEncoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;

/**
 * mongo-java-server's wire server, with each connection's commands run on a thread of its own, as
 * MongoDB runs them (a thread per connection). Upstream ran them on netty's I/O threads, a handful
 * shared by every connection: while long commands (an aggregation over thousands of documents, a large
 * bulk write) held each of them, every other connection waited, a {@code ping} or the driver's
 * {@code hello} too, and a busy engine looked stalled to the app (docs/decisions/0045). Here the I/O
 * threads only read and write bytes, a connection's commands wait only behind its own (a driver sends
 * one at a time on a connection), and the operating system shares the cores between the threads.
 */
final class EngineServer {

    private final MongoBackend backend;
    private EventLoopGroup acceptor;
    private EventLoopGroup io;
    private ChannelGroup channels;
    private Channel listener;

    EngineServer(MongoBackend backend) {
        this.backend = backend;
    }

    void bind(String host, int port) {
        acceptor = new NioEventLoopGroup(1, threads("engine-accept", false));
        io = new NioEventLoopGroup(0, threads("engine-io", false));
        channels = new DefaultChannelGroup("engine-connections", io.next());
        ThreadFactory connectionThreads = threads("engine-connection", true);
        try {
            listener = new ServerBootstrap()
                .group(acceptor, io)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 100)
                .localAddress(new InetSocketAddress(host, port))
                .childOption(ChannelOption.TCP_NODELAY, Boolean.TRUE)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        // One thread for this connection's commands, ended with the connection.
                        EventExecutor commands = new DefaultEventExecutor(connectionThreads);
                        channel.pipeline()
                            .addLast(new MongoWireReplyEncoder())
                            .addLast(new MongoWireMessageEncoder())
                            .addLast(new MongoWireProtocolHandler())
                            .addLast(commands, new MongoDatabaseHandler(backend, channels))
                            .addLast(commands, new MongoExceptionHandler())
                            .addLast(commands, new EndThreadWhenClosed());
                    }
                })
                .bind()
                .syncUninterruptibly()
                .channel();
        } catch (RuntimeException e) {
            shutdownNow();
            throw e;
        }
    }

    /** Stops listening, closes every connection, ends the threads and closes the store. */
    void shutdownNow() {
        if (listener != null) {
            listener.close().syncUninterruptibly();
            listener = null;
        }
        if (channels != null) {
            channels.close().syncUninterruptibly();
        }
        for (EventLoopGroup group : new EventLoopGroup[] {acceptor, io}) {
            if (group != null) {
                group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
        backend.close();
    }

    /** Last in a connection's pipeline, on its command thread: ends that thread once the connection is gone. */
    private static final class EndThreadWhenClosed extends ChannelInboundHandlerAdapter {
        @Override
        public void channelUnregistered(ChannelHandlerContext ctx) throws Exception {
            super.channelUnregistered(ctx);
            ctx.executor().shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
    }

    /** The listener's threads keep the process alive (as upstream's); a connection's do not. */
    private static ThreadFactory threads(String prefix, boolean daemon) {
        AtomicLong count = new AtomicLong();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(daemon);
            return thread;
        };
    }
}
