import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Arc2D;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;

/**
 * Draws the Redrive icon: a circular "run again" arrow around a red dead letter. Run with
 * {@code java DrawIcon.java OUT.png SIZE} (a single-file program; no build needed).
 */
public class DrawIcon {
    public static void main(String[] args) throws IOException {
        int size = Integer.parseInt(args[1]);
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.scale(size / 512.0, size / 512.0);

        g.setColor(new Color(0x1e293b));
        g.fill(new RoundRectangle2D.Double(24, 24, 464, 464, 208, 208));

        Color light = new Color(0xe2e8f0);
        g.setColor(light);
        g.setStroke(new BasicStroke(44, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
        // Java2D angles run counter-clockwise from 3 o'clock: the arc leaves a gap at the top right for the head.
        g.draw(new Arc2D.Double(116, 116, 280, 280, 120, 270, Arc2D.OPEN));
        double headAngle = Math.toRadians(120);
        double px = 256 + 140 * Math.cos(headAngle);
        double py = 256 - 140 * Math.sin(headAngle);
        double tx = Math.sin(headAngle);
        double ty = Math.cos(headAngle);
        double nx = Math.cos(headAngle);
        double ny = -Math.sin(headAngle);
        Path2D head = new Path2D.Double();
        head.moveTo(px + 62 * tx, py + 62 * ty);
        head.lineTo(px - 4 * tx + 50 * nx, py - 4 * ty + 50 * ny);
        head.lineTo(px - 4 * tx - 50 * nx, py - 4 * ty - 50 * ny);
        head.closePath();
        g.fill(head);

        g.setColor(new Color(0xef4444));
        g.fill(new RoundRectangle2D.Double(186, 206, 140, 100, 22, 22));
        g.setColor(new Color(0x1e293b));
        g.setStroke(new BasicStroke(11, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        Path2D flap = new Path2D.Double();
        flap.moveTo(196, 218);
        flap.lineTo(256, 262);
        flap.lineTo(316, 218);
        g.draw(flap);
        g.dispose();
        ImageIO.write(image, "png", new File(args[0]));
    }
}
